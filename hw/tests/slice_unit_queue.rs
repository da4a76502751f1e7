//! The ordering queue alone against a reference model of its rules: order within a line,
//! overtaking across lines (the age matrix picks the oldest eligible entry, whatever slots
//! the entries sit in), the hazard window after a late entry's issue (the default window of
//! 2 cycles, and windows of 0..=15 in a queue built for 15), unordered entries, full, reset,
//! and with a registered push the chain keys: chains (the chain's window after an equal
//! chainable key's issue) and fast chains (a fast-equal key's dependent issues from the cycle
//! after it).

mod common;
use common::{Rng, b128, seed, u128_of};
use hw::ordering_queue::{OrderingQueue, QUEUE_DEPTH, QUEUE_HAZARD_CYCLES, QUEUE_KEY_BITS, QUEUE_KEY_LONG};

const LATE: usize = QUEUE_HAZARD_CYCLES;
use rust_hdl::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    line: u64,
    ordered: bool,
    /// The hazard window (cycles after its issue in which its line's ordered entries wait).
    wait: usize,
    /// The 32-bit words of the line it touches (`push_words`): entries to one line depend on
    /// each other only where their words meet.
    words: u64,
    /// The chain key (`push_key`; registered push).
    key: u64,
    tag: u64,
}

/// The chain key's chainable, fast and long bits.
const KEY_CHAIN: u64 = 1 << (QUEUE_KEY_BITS - 1);
const KEY_FAST: u64 = 1 << (QUEUE_KEY_BITS - 2);
const KEY_LONG: u64 = 1 << QUEUE_KEY_LONG;

/// Chain-equal keys: the chainable bit set, equal but for the fast bit.
fn chain_eq(a: u64, b: u64) -> bool {
    a & KEY_CHAIN != 0 && (a & !KEY_FAST) == (b & !KEY_FAST)
}

/// Fast-equal keys: the chainable and fast bits set, equal in all bits.
fn fast_eq(a: u64, b: u64) -> bool {
    a & KEY_CHAIN != 0 && a & KEY_FAST != 0 && a == b
}

struct Drive {
    push: Option<Entry>,
    enable: bool,
    reset: bool,
}

/// What the DUT showed in one cycle.
#[derive(Debug)]
struct Seen {
    push_ready: bool,
    issued: Option<(u64, bool, u64)>,
    cov_full: bool,
    cov_overtake: bool,
    cov_line_wait: bool,
    cov_hazard_wait: bool,
}

/// What the push carries in the next cycle (a registered push compares it with the slots a
/// cycle ahead): line, key and words, and whether the pusher says so with `push_nx_keep`
/// (they stay; `push_line_nx`, `push_key_nx` and `push_words_nx` are then any).
type Nx = (u64, u64, u64, bool);

/// The line, key and words of a push (what `Nx` names).
fn lkw(e: &Entry) -> (u64, u64, u64) {
    (e.line, e.key, e.words)
}

/// One cycle; `line_nx`: what the push carries in the next cycle, when the caller knows it.
fn cycle(q: &mut OrderingQueue, d: &Drive, line_nx: Option<Nx>) -> Seen {
    q.clock.next = Clock::from(false);
    if let Some((l, k, w, keep)) = line_nx {
        q.push_line_nx.next = b128(l as u128);
        q.push_key_nx.next = k.to_bits();
        q.push_words_nx.next = w.to_bits();
        q.push_nx_keep.next = keep;
    }
    q.reset.next = d.reset;
    q.push_valid.next = d.push.is_some();
    if let Some(e) = d.push {
        q.push_line.next = b128(e.line as u128);
        q.push_ordered.next = e.ordered;
        q.push_wait.next = (e.wait as u64).to_bits();
        q.push_words.next = e.words.to_bits();
        q.push_key.next = e.key.to_bits();
        q.push_payload.next = b128(e.tag as u128);
    }
    q.issue_enable.next = d.enable;
    assert!(simulate(q, 1000));
    let seen = Seen {
        push_ready: q.push_ready.val(),
        issued: q.issue_valid.val().then(|| {
            (u128_of(q.issue_line.val()) as u64, q.issue_ordered.val(), u128_of(q.issue_payload.val()) as u64)
        }),
        cov_full: q.cov_full.val(),
        cov_overtake: q.cov_overtake.val(),
        cov_line_wait: q.cov_line_wait.val(),
        cov_hazard_wait: q.cov_hazard_wait.val(),
    };
    q.clock.next = Clock::from(true);
    assert!(simulate(q, 1000));
    seen
}

/// The words of a random entry: the whole line half the time, else one word, two aligned
/// words or any non-empty set.
fn random_words(rng: &mut Rng) -> u64 {
    match rng.below(4) {
        0 | 1 => 0xf,
        2 => 1 << rng.below(4),
        _ => [0x3, 0xc, 0x5, 0x6, 0x9, 0xa, 0x7, 0xe][rng.below(8)],
    }
}

/// The reference: entries in arrival order, and the lines of the ordered entries issued with
/// a window whose cycles are not over, with the cycles left and the step of the issue (they
/// hold the entries pushed after it; those in the queue then, or pushed in its step, take a
/// window per entry, `hold`, by their keys).
struct Model {
    entries: Vec<Entry>,
    hazards: Vec<(u64, u64, usize, u64)>,
    /// Per entry: the cycles left of the windows it took at its dependences' issues (the
    /// chain's window after an issue with a chain-equal key, none after a fast-equal one),
    /// and the step it was pushed in.
    hold: Vec<usize>,
    born: Vec<u64>,
    /// The steps so far, and the chain's windows (a key without and with the long bit).
    now: u64,
    chain_wait: usize,
    chain_wait_long: usize,
    /// Registered push: an entry is not eligible in its first cycle (`fresh`).
    registered: bool,
    fresh: Vec<bool>,
    /// Registered push: an entry issued in the last cycle (its slot is offered a cycle later).
    issued_last: bool,
    /// Registered push: the last cycle's pick, which leaves on the issue outputs now.
    late: Option<(u64, bool, u64)>,
    /// Registered push: the last cycle's line and hazard waits (`cov_line_wait` and
    /// `cov_hazard_wait` show them now).
    waits_last: (bool, bool),
    overtake_last: bool,
}

impl Model {
    fn new() -> Model {
        Model::with(false)
    }
    fn with(registered: bool) -> Model {
        Model {
            entries: vec![],
            hazards: vec![],
            hold: vec![],
            born: vec![],
            now: 0,
            chain_wait: 1,
            chain_wait_long: 1,
            registered,
            fresh: vec![],
            issued_last: false,
            late: None,
            waits_last: (false, false),
            overtake_last: false,
        }
    }
    fn with_chain(registered: bool, (chain_wait, chain_wait_long): (usize, usize)) -> Model {
        Model { chain_wait, chain_wait_long, ..Model::with(registered) }
    }
    fn older_same(&self, i: usize) -> bool {
        let e = self.entries[i];
        e.ordered && self.entries[..i].iter().any(|o| o.ordered && o.line == e.line && o.words & e.words != 0)
    }
    fn hazard(&self, i: usize) -> bool {
        let e = self.entries[i];
        e.ordered
            && (self.hold[i] > 0
                || self
                    .hazards
                    .iter()
                    .any(|&(l, w, left, at)| l == e.line && w & e.words != 0 && left > 0 && self.born[i] > at))
    }
    fn eligible(&self, i: usize) -> bool {
        !self.older_same(i) && !self.hazard(i) && !self.fresh[i]
    }
    /// The oldest eligible entry, when the queue may issue.
    fn pick(&self, d: &Drive) -> Option<usize> {
        if !d.enable || d.reset {
            return None;
        }
        (0..self.entries.len()).find(|&i| self.eligible(i))
    }
    /// The clock edge: the pick leaves, the push lands behind, the hazard window moves.
    fn step(&mut self, d: &Drive, pick: Option<usize>, pushed: bool) {
        if d.reset {
            *self = Model {
                waits_last: self.waits_last,
                overtake_last: self.overtake_last,
                ..Model::with_chain(self.registered, (self.chain_wait, self.chain_wait_long))
            };
            return;
        }
        self.now += 1;
        if let Some(i) = pick {
            self.fresh.remove(i);
            self.hold.remove(i);
            self.born.remove(i);
        }
        let issued = pick.map(|i| self.entries.remove(i));
        self.issued_last = issued.is_some();
        self.fresh.iter_mut().for_each(|f| *f = false);
        for h in &mut self.hazards {
            h.2 -= 1;
        }
        self.hazards.retain(|h| h.2 > 0);
        self.hold.iter_mut().for_each(|h| *h = h.saturating_sub(1));
        if pushed {
            self.entries.push(d.push.unwrap());
            self.fresh.push(self.registered);
            self.hold.push(0);
            self.born.push(self.now);
        }
        // (A registered push's queue gives every ordered entry a window of at least 1.)
        let floor = self.registered as usize;
        if let Some(a) = issued.filter(|e| e.ordered && e.wait.max(floor) > 0) {
            let w = a.wait.max(floor);
            self.hazards.push((a.line, a.words, w, self.now));
            // Its dependents (those in the queue, younger, and the one pushed now): the
            // chain's window with a chain-equal key, none with a fast-equal one (they waited
            // for its pick), else its window.
            for (i, e) in self.entries.iter().enumerate() {
                if e.ordered && e.line == a.line && e.words & a.words != 0 {
                    let h = if !self.registered {
                        w
                    } else if fast_eq(e.key, a.key) {
                        0
                    } else if chain_eq(e.key, a.key) && e.key & KEY_LONG != 0 {
                        self.chain_wait_long
                    } else if chain_eq(e.key, a.key) {
                        self.chain_wait
                    } else {
                        w
                    };
                    self.hold[i] = self.hold[i].max(h);
                }
            }
        }
    }
}

fn check(q: &mut OrderingQueue, model: &mut Model, d: &Drive, n: usize) -> Seen {
    check_nx(q, model, d, n, None)
}

fn check_nx(q: &mut OrderingQueue, model: &mut Model, d: &Drive, n: usize, line_nx: Option<Nx>) -> Seen {
    let exp = model.pick(d);
    let seen = cycle(q, d, line_nx);
    let len = model.entries.len();
    // (A registered push's queue offers a slot freed by an issue a cycle later.)
    let held = (model.registered && model.issued_last) as usize;
    assert_eq!(seen.push_ready, len + held < QUEUE_DEPTH && !d.reset, "cycle {n}: push_ready");
    let picked = exp.map(|i| {
        let e = model.entries[i];
        (e.line, e.ordered, e.tag)
    });
    // (A registered push's queue puts the pick on its outputs a cycle later.)
    let late = model.late.take();
    assert_eq!(
        seen.issued,
        if model.registered { late } else { picked },
        "cycle {n}: issue (model {:?}, hazards {:?})",
        model.entries,
        model.hazards
    );
    assert_eq!(seen.cov_full, len == QUEUE_DEPTH, "cycle {n}: cov_full");
    let overtake = exp.is_some_and(|i| i > 0);
    // (A registered push's queue shows an overtake a cycle later.)
    let overtake_seen = if model.registered { model.overtake_last } else { overtake };
    assert_eq!(seen.cov_overtake, overtake_seen, "cycle {n}: cov_overtake");
    let waits = ((0..len).any(|i| model.older_same(i)), (0..len).any(|i| !model.older_same(i) && model.hazard(i)));
    // (A registered push's queue shows the waits a cycle later.)
    let (line_wait, hazard_wait) = if model.registered { model.waits_last } else { waits };
    assert_eq!(seen.cov_line_wait, line_wait, "cycle {n}: cov_line_wait");
    assert_eq!(seen.cov_hazard_wait, hazard_wait, "cycle {n}: cov_hazard_wait");
    model.step(d, exp, d.push.is_some() && seen.push_ready);
    model.late = picked;
    model.waits_last = waits;
    model.overtake_last = overtake;
    seen
}

/// Random pushes (few lines, so that lines collide; late and unordered entries), issue
/// enables and resets, in phases that fill the queue, drain it and mix: every cycle's issue
/// and coverage outputs equal the model's.
#[test]
fn ordering_queue_random_against_model() {
    random_against_model("ordering_queue_random_against_model", None, false);
}

/// The same with a queue for windows of up to 15 cycles (the unit's deep pipelines) and
/// windows drawn from 0..=15.
#[test]
fn ordering_queue_long_windows_random_against_model() {
    random_against_model("ordering_queue_long_windows_random_against_model", Some(15), false);
}

/// The registered push (the unit's queue): windows of up to 16 cycles, and a
/// pushed entry is never eligible in its first cycle.
#[test]
fn ordering_queue_registered_push_random_against_model() {
    random_against_model("ordering_queue_registered_push_random_against_model", Some(16), true);
}

/// Chain keys (registered push, the unit's chain window of 1): few lines and few keys, fast,
/// chain-only and no keys mixed (a chainable entry's window at least the chain's), so that
/// entries chain, fast-chain and mix both behind one another: every cycle's issue (order and
/// cycle) and coverage equal the model's, where a chain dependent waits the chain's window
/// after its producer's issue and a fast-chain dependent may issue in the cycle after it.
#[test]
fn ordering_queue_chain_keys_random_against_model() {
    random_with_keys("ordering_queue_chain_keys_random_against_model", 2, (1, 2));
}

/// The same with a chain window of 2, a long one of 3 and windows of up to 4.
#[test]
fn ordering_queue_chain_keys_wait2_random_against_model() {
    random_with_keys("ordering_queue_chain_keys_wait2_random_against_model", 4, (2, 3));
}

/// The default unit's windows: up to 16, chains 1 and the FP loop's long chains 13.
#[test]
fn ordering_queue_long_chain_keys_random_against_model() {
    random_with_keys("ordering_queue_long_chain_keys_random_against_model", 16, (1, 13));
}

fn random_against_model(name: &str, max_wait: Option<usize>, registered: bool) {
    random_model_run(name, max_wait, registered, None);
}

fn random_with_keys(name: &str, max_wait: usize, chain_waits: (usize, usize)) {
    random_model_run(name, Some(max_wait), true, Some(chain_waits));
}

/// A random key: none, or chainable (fast, long or neither) over two byte sets, mostly one.
fn random_key(rng: &mut Rng) -> u64 {
    let bytes = [0x23u64, 0x23, 0x23, 0x10][rng.below(4)];
    match rng.below(8) {
        0 => 0,
        1 | 2 => KEY_CHAIN | bytes,
        3 | 4 => KEY_CHAIN | KEY_LONG | bytes,
        _ => KEY_CHAIN | KEY_FAST | bytes,
    }
}

/// The words of a fast key's bytes (the unit's keys name the bytes an access touches).
fn fast_words(key: u64) -> u64 {
    if key & 0x7f == 0x10 { 0xf } else { 0x1 }
}

/// `chain`: the queue's chain windows (without and with the long bit), with chain keys drawn
/// (few lines, few keys).
fn random_model_run(name: &str, max_wait: Option<usize>, registered: bool, chain: Option<(usize, usize)>) {
    let s = seed(name);
    let mut rng = Rng(s);
    let mut q = match max_wait {
        None => OrderingQueue::default(),
        Some(m) => OrderingQueue::with_registered_push(m, registered),
    };
    if let Some((c, cl)) = chain {
        q = q.with_chain_wait(c).with_long_chain_wait(cl);
    }
    q.connect_all();
    let mut model = Model::with_chain(registered, chain.unwrap_or((1, 1)));
    let mut tag = 0u64;
    let (mut overtakes, mut fulls, mut waits, mut hz_waits, mut resets) = (0, 0, 0, 0, 0);
    let lines: &[u64] = if chain.is_some() { &[5, 5, 5, 9, 9, 0x0fff_ffff] } else { &[5, 9, 0x0abc_def0, 0x0fff_ffff] };
    // The drawn entries by tag, and the recent issues (cycle, entry), for the chain counts.
    let mut drawn = std::collections::HashMap::new();
    let mut recent: Vec<(usize, Entry)> = vec![];
    let (mut fast_next, mut chain_next, mut long_next) = (0, 0, 0);
    let mut draw = |n: usize, rng: &mut Rng| {
        // Phases: fill (issue rarely), drain, mixed.
        let phase = (n / 500) % 3;
        let line = |rng: &mut Rng| lines[rng.below(lines.len())];
        let push = (rng.below(10) < if phase == 1 { 3 } else { 8 }).then(|| {
            tag += 1;
            let mut wait = match max_wait {
                None => [0, LATE][rng.below(2)],
                Some(m) => [0, 0, 1, 2, m, rng.below(m + 1)][rng.below(6)],
            };
            let (mut key, mut words) = (0, random_words(rng));
            if let Some((c, cl)) = chain {
                key = random_key(rng);
                // (The chain contract: a chainable entry's window is at least the chain's.)
                if key != 0 {
                    wait = wait.max(if key & KEY_LONG != 0 { cl } else { c });
                }
                // (Mostly the whole line or one word, so that entries depend on each other.)
                if rng.below(2) == 0 {
                    words = [0xf, 0x1][rng.below(2)];
                }
                // (The push contract: fast-equal keys to one line touch the same words.)
                if key & KEY_FAST != 0 {
                    words = fast_words(key);
                }
            }
            Entry { line: line(rng), ordered: rng.below(8) != 0, wait, words, key, tag }
        });
        Drive { push, enable: rng.below(10) < if phase == 0 { 2 } else { 8 }, reset: rng.below(3000) == 0 }
    };
    // The drives are drawn a cycle ahead: the queue is told the line `push_line` holds in the
    // next cycle (the next push's, or the one it holds now); when that is the line it holds
    // now (no push next, or a push to the same line, like a request the unit holds while the
    // queue is full), half the time as the unit says it: `push_nx_keep` with another line on
    // `push_line_nx` (the line its request register would have loaded).
    let mut d = Drive { push: None, enable: false, reset: true };
    let mut held = (0u64, 0u64, 0u64);
    let mut keeps = 0;
    for n in 0..30_000 {
        let next = draw(n + 1, &mut rng);
        if let Some(e) = next.push {
            drawn.insert(e.tag, e);
        }
        held = d.push.as_ref().map_or(held, lkw);
        let line_nx = next.push.as_ref().map_or(held, lkw);
        let nx = if registered && line_nx == held && rng.below(2) == 0 {
            keeps += next.push.is_some() as usize;
            ([5u64, 9, 0x0abc_def0, 0x0fff_ffff][rng.below(4)], random_key(&mut rng), random_words(&mut rng), true)
        } else {
            (line_nx.0, line_nx.1, line_nx.2, false)
        };
        let seen = check_nx(&mut q, &mut model, &d, n, Some(nx));
        overtakes += seen.cov_overtake as usize;
        fulls += seen.cov_full as usize;
        waits += seen.cov_line_wait as usize;
        hz_waits += seen.cov_hazard_wait as usize;
        resets += (n > 0 && d.reset) as usize;
        // The issues right behind an older dependence: a fast-equal one in the cycle after it, a
        // chain-equal one the chain's window after it.
        if let (Some((c, cl)), Some((_, _, t))) = (chain, seen.issued) {
            let e = drawn[&t];
            recent.retain(|&(m, _)| m + cl.max(c) + 2 > n);
            for &(m, a) in &recent {
                if a.ordered && e.ordered && a.line == e.line && a.words & e.words != 0 && a.tag < e.tag {
                    let long = e.key & KEY_LONG != 0;
                    let chained = !fast_eq(e.key, a.key) && chain_eq(e.key, a.key);
                    fast_next += (fast_eq(e.key, a.key) && m + 1 == n) as usize;
                    chain_next += (chained && !long && m + c + 1 == n) as usize;
                    long_next += (chained && long && m + cl + 1 == n) as usize;
                }
            }
            recent.push((n, e));
        }
        d = next;
    }
    if chain.is_some() {
        eprintln!(
            "fast-chain issues a cycle after their producer {fast_next}, chain issues the chain's window after it {chain_next}, long-chain issues the long window after it {long_next}"
        );
        assert!(
            fast_next > 200 && chain_next > 200 && long_next > 100,
            "fast {fast_next}, chain {chain_next}, long {long_next}"
        );
    }
    eprintln!(
        "overtakes {overtakes}, full cycles {fulls}, line waits {waits}, hazard waits {hz_waits}, resets {resets}, pushes after a keep {keeps}"
    );
    assert!(overtakes > 100 && fulls > 100 && waits > 100 && hz_waits > 100 && resets > 0);
    // (`keeps`: pushes whose line, key and word compares came from `push_nx_keep`.)
    assert!(!registered || keeps > 300, "keeps {keeps}");
}

/// Directed: A1 (late) B A2 to lines A, B, A: A1 issues, B overtakes A2 while A1's result is
/// not there (two cycles), then A2, then A3 behind it.
#[test]
fn ordering_queue_overtake_and_order_within_line() {
    let mut q = OrderingQueue::default();
    q.connect_all();
    let mut model = Model::new();
    let e = |line, late: bool, tag| Entry {
        line,
        ordered: true,
        wait: if late { LATE } else { 0 },
        words: 0xf,
        key: 0,
        tag,
    };
    let d = |push, enable| Drive { push, enable, reset: false };
    check(&mut q, &mut model, &Drive { push: None, enable: false, reset: true }, 0);
    let (a1, a2, b, a3) = (e(1, true, 1), e(1, false, 2), e(2, false, 3), e(1, false, 4));
    assert!(check(&mut q, &mut model, &d(Some(a1), false), 1).push_ready);
    assert_eq!(check(&mut q, &mut model, &d(Some(a2), true), 2).issued, Some((1, true, 1)));
    let s = check(&mut q, &mut model, &d(Some(b), true), 3);
    assert_eq!(s.issued, None);
    assert!(s.cov_hazard_wait && !s.cov_line_wait);
    let s = check(&mut q, &mut model, &d(Some(a3), true), 4);
    assert_eq!(s.issued, Some((2, true, 3)));
    assert!(s.cov_overtake && s.cov_hazard_wait);
    assert_eq!(check(&mut q, &mut model, &d(None, true), 5).issued, Some((1, true, 2)));
    assert_eq!(check(&mut q, &mut model, &d(None, true), 6).issued, Some((1, true, 4)));
    assert_eq!(check(&mut q, &mut model, &d(None, true), 7).issued, None);
    // A request pushed in the cycle after a late issue to its line waits for it too.
    check(&mut q, &mut model, &d(Some(e(7, true, 5)), false), 8);
    assert_eq!(check(&mut q, &mut model, &d(None, true), 9).issued, Some((7, true, 5)));
    check(&mut q, &mut model, &d(Some(e(7, false, 6)), true), 10);
    let s = check(&mut q, &mut model, &d(None, true), 11);
    assert!(s.issued.is_none() && s.cov_hazard_wait);
    assert_eq!(check(&mut q, &mut model, &d(None, true), 12).issued, Some((7, true, 6)));
    // Full after QUEUE_DEPTH pushes with nothing issuing.
    for t in 0..QUEUE_DEPTH as u64 {
        assert!(check(&mut q, &mut model, &d(Some(e(t, false, 10 + t)), false), 13).push_ready);
    }
    let s = check(&mut q, &mut model, &d(Some(e(99, false, 99)), false), 14);
    assert!(!s.push_ready && s.cov_full);
}

/// The age matrix across slot reuse: entries leave from the middle and new ones land in the
/// freed slots (the lowest free one), yet the pick stays in arrival order. Each round fills
/// the queue with distinct lines, issues a random subset out of order by holding the older
/// ones behind late entries to their lines, and refills.
#[test]
fn ordering_queue_age_matrix_keeps_arrival_order_across_slot_reuse() {
    let s = seed("ordering_queue_age_matrix_keeps_arrival_order_across_slot_reuse");
    let mut rng = Rng(s);
    let mut q = OrderingQueue::default();
    q.connect_all();
    let mut model = Model::new();
    let mut tag = 0u64;
    let mut n = 0;
    let mut issued = 0;
    check(&mut q, &mut model, &Drive { push: None, enable: false, reset: true }, n);
    for _round in 0..400 {
        // Refill to full: distinct lines (a few shared), some late.
        while model.entries.len() < QUEUE_DEPTH {
            n += 1;
            tag += 1;
            let push = Entry {
                line: rng.below(12) as u64,
                ordered: rng.below(6) != 0,
                wait: [0, LATE][rng.below(2)],
                words: 0xf,
                key: 0,
                tag,
            };
            check(&mut q, &mut model, &Drive { push: Some(push), enable: false, reset: false }, n);
        }
        // Drain a few with random enables: late issues hold their lines and younger entries
        // overtake, which frees slots in the middle.
        for _ in 0..1 + rng.below(QUEUE_DEPTH) {
            n += 1;
            let seen = check(&mut q, &mut model, &Drive { push: None, enable: rng.below(4) != 0, reset: false }, n);
            issued += seen.issued.is_some() as usize;
        }
    }
    eprintln!("{n} cycles, {issued} issues");
    assert!(issued > 1000);
}

/// A full queue of entries to one line and word with one key (registered push, windows of 2,
/// the unit's chain window of 1), pushed while the issue is held, then drained: the cycles of
/// their issues, in push order (checked against the model too).
fn drain_one_key(key: u64) -> Vec<usize> {
    let mut q = OrderingQueue::with_registered_push(2, true).with_chain_wait(1);
    q.connect_all();
    let mut model = Model::with_chain(true, (1, 1));
    let line = 5u64;
    let d = |push, enable| Drive { push, enable, reset: false };
    check_nx(&mut q, &mut model, &Drive { push: None, enable: false, reset: true }, 0, Some((line, key, 0xf, false)));
    let mut n = 1;
    for t in 1..=QUEUE_DEPTH as u64 {
        let e = Entry { line, ordered: true, wait: 2, words: 0xf, key, tag: t };
        assert!(check_nx(&mut q, &mut model, &d(Some(e), false), n, Some((line, key, 0xf, false))).push_ready);
        n += 1;
    }
    let mut issued = vec![];
    for _ in 0..4 * QUEUE_DEPTH {
        if let Some((l, o, t)) = check_nx(&mut q, &mut model, &d(None, true), n, Some((line, key, 0xf, false))).issued {
            assert!(l == line && o && t == issued.len() as u64 + 1, "cycle {n}: tag {t} out of order");
            issued.push(n);
        }
        n += 1;
    }
    assert_eq!(issued.len(), QUEUE_DEPTH);
    issued
}

/// Directed: fast-equal keys issue one per cycle, chain keys (the same bytes, not fast) every 2
/// cycles, no keys every 3 (the window of 2), and a fast key behind a chain key of the same
/// bytes chains (every 2).
#[test]
fn ordering_queue_fast_chain_one_per_cycle() {
    let gaps = |v: Vec<usize>| v.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>();
    let fast = KEY_CHAIN | KEY_FAST | 0x23;
    assert_eq!(gaps(drain_one_key(fast)), vec![1; QUEUE_DEPTH - 1], "fast chain");
    assert_eq!(gaps(drain_one_key(KEY_CHAIN | 0x23)), vec![2; QUEUE_DEPTH - 1], "chain");
    assert_eq!(gaps(drain_one_key(0)), vec![3; QUEUE_DEPTH - 1], "no chain");
}

/// Directed: a fast-chain dependent never issues before its producer while the producer
/// waits for a window: A (fast key, words 0 and 1) waits 2 cycles behind a late entry P to
/// word 0; B (A's key and words) waits for A, and C (another line) overtakes both.
#[test]
fn ordering_queue_fast_chain_waits_for_producer() {
    let mut q = OrderingQueue::with_registered_push(2, true).with_chain_wait(1);
    q.connect_all();
    let mut model = Model::with_chain(true, (1, 1));
    let fast = KEY_CHAIN | KEY_FAST | 0x23;
    let d = |push, enable| Drive { push, enable, reset: false };
    let e = |line, words, key, tag| Entry { line, ordered: true, wait: 2, words, key, tag };
    let mut drives = vec![
        Drive { push: None, enable: false, reset: true },
        d(Some(e(5, 0x1, 0, 1)), false),
        d(Some(e(5, 0x3, fast, 2)), false),
        d(Some(e(5, 0x3, fast, 3)), false),
        d(Some(e(6, 0x1, 0, 4)), true),
    ];
    drives.extend((0..12).map(|_| d(None, true)));
    // (`push_line_nx`, `push_key_nx`, `push_words_nx`: what the push holds in the next cycle.)
    let mut order = vec![];
    let mut held = (5, 0, 0);
    for (n, dr) in drives.iter().enumerate() {
        held = dr.push.as_ref().map_or(held, lkw);
        let nx = drives.get(n + 1).and_then(|x| x.push.as_ref()).map_or(held, lkw);
        order.extend(check_nx(&mut q, &mut model, dr, n, Some((nx.0, nx.1, nx.2, false))).issued.map(|(_, _, t)| t));
    }
    assert_eq!(order, vec![1, 4, 2, 3]);
}

/// Directed: fast chains on two lines pushed every cycle, interleaved with unkeyed entries to
/// other lines, while the issue runs (with a pause that builds a backlog): an entry between a
/// fast-chain entry and its last fast predecessor in age may be picked in between, and every
/// issue matches the model's cycle. A chain with no one between issues one entry per cycle.
#[test]
fn ordering_queue_fast_chain_interleaved() {
    let mut q = OrderingQueue::with_registered_push(2, true).with_chain_wait(1);
    q.connect_all();
    let mut model = Model::with_chain(true, (1, 1));
    let fast = KEY_CHAIN | KEY_FAST | 0x23;
    let mut drives = vec![Drive { push: None, enable: false, reset: true }];
    // (Pushes in rounds of six: the fast chains on lines 5 (three) and 7, unkeyed entries to 9
    // and 6.)
    for t in 1..=60u64 {
        let (line, key, wait) = match t % 6 {
            0 | 1 | 3 => (5, fast, 2),
            2 => (9, 0, [0, 2][(t % 4 == 2) as usize]),
            4 => (7, fast, 2),
            _ => (6, 0, 0),
        };
        let enable = !(20..26).contains(&t);
        drives.push(Drive {
            push: Some(Entry { line, ordered: true, wait, words: fast_words(key), key, tag: t }),
            enable,
            reset: false,
        });
    }
    drives.extend((0..40).map(|_| Drive { push: None, enable: true, reset: false }));
    let mut issued = vec![];
    let mut held = (0, 0, 0);
    let mut n = 0;
    let mut k = 0;
    while k < drives.len() {
        let dr = &drives[k];
        held = dr.push.as_ref().map_or(held, lkw);
        // (A push the queue refuses is offered again. Whether it will, the model knows before
        // the cycle, and so the line `push_line` holds next; `check_nx` checks `push_ready`.)
        let ready = model.entries.len() + (model.issued_last as usize) < QUEUE_DEPTH && !dr.reset;
        let advance = dr.push.is_none() || ready;
        let nx = if advance { drives.get(k + 1).and_then(|x| x.push.as_ref()).map_or(held, lkw) } else { held };
        let seen = check_nx(&mut q, &mut model, dr, n, Some((nx.0, nx.1, nx.2, false)));
        issued.extend(seen.issued.map(|(l, _, t)| (n, l, t)));
        if advance {
            k += 1;
        }
        n += 1;
    }
    assert_eq!(issued.len(), 60, "every entry issues");
    // Each chain in push order, and some fast-chain entry right behind its predecessor.
    for line in [5, 7] {
        let tags: Vec<u64> = issued.iter().filter(|x| x.1 == line).map(|x| x.2).collect();
        assert!(tags.windows(2).all(|w| w[0] < w[1]), "line {line}: {tags:?}");
    }
    let back_to_back = issued.windows(2).filter(|w| w[0].1 == w[1].1 && w[0].1 == 5 && w[1].0 == w[0].0 + 1).count();
    assert!(back_to_back > 0, "no fast-chain issue right behind its predecessor: {issued:?}");
}
