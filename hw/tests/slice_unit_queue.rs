//! The ordering queue alone against a reference model of its rules: order within a line,
//! overtaking across lines, hazard lines, unordered entries, full, reset.

mod common;
use common::{Rng, b128, seed, u128_of};
use hw::ordering_queue::{OrderingQueue, QUEUE_DEPTH};
use rust_hdl::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    line: u64,
    ordered: bool,
    tag: u64,
}

struct Drive {
    push: Option<Entry>,
    hz_a: Option<u64>,
    hz_b: Option<u64>,
    enable: bool,
    reset: bool,
}

/// What the DUT showed in one cycle.
struct Seen {
    push_ready: bool,
    issued: Option<Entry>,
    cov_full: bool,
    cov_overtake: bool,
    cov_line_wait: bool,
}

fn cycle(q: &mut OrderingQueue, d: &Drive) -> Seen {
    q.clock.next = Clock::from(false);
    q.reset.next = d.reset;
    q.push_valid.next = d.push.is_some();
    if let Some(e) = d.push {
        q.push_line.next = b128(e.line as u128);
        q.push_ordered.next = e.ordered;
        q.push_payload.next = b128(e.tag as u128);
    }
    q.hz_a_valid.next = d.hz_a.is_some();
    q.hz_a_line.next = b128(d.hz_a.unwrap_or(0) as u128);
    q.hz_b_valid.next = d.hz_b.is_some();
    q.hz_b_line.next = b128(d.hz_b.unwrap_or(0) as u128);
    q.issue_enable.next = d.enable;
    assert!(simulate(q, 1000));
    let seen = Seen {
        push_ready: q.push_ready.val(),
        issued: q.issue_valid.val().then(|| Entry {
            line: u128_of(q.issue_line.val()) as u64,
            ordered: q.issue_ordered.val(),
            tag: u128_of(q.issue_payload.val()) as u64,
        }),
        cov_full: q.cov_full.val(),
        cov_overtake: q.cov_overtake.val(),
        cov_line_wait: q.cov_line_wait.val(),
    };
    q.clock.next = Clock::from(true);
    assert!(simulate(q, 1000));
    seen
}

/// The reference: the oldest entry that is unordered, or ordered with no older ordered entry
/// to its line and its line not a hazard line.
fn pick(model: &[Entry], d: &Drive) -> Option<usize> {
    if !d.enable || d.reset {
        return None;
    }
    (0..model.len()).find(|&i| {
        let e = model[i];
        !e.ordered
            || (!model[..i].iter().any(|o| o.ordered && o.line == e.line)
                && d.hz_a != Some(e.line)
                && d.hz_b != Some(e.line))
    })
}

#[test]
fn ordering_queue_random_against_model() {
    let mut rng = Rng(seed("ordering_queue_random_against_model"));
    let mut q = OrderingQueue::default();
    q.connect_all();
    let mut model: Vec<Entry> = vec![];
    let mut tag = 0u64;
    let (mut overtakes, mut fulls, mut waits, mut resets) = (0, 0, 0, 0);
    cycle(&mut q, &Drive { push: None, hz_a: None, hz_b: None, enable: false, reset: true });
    for n in 0..20_000 {
        // Phases: fill (issue rarely), drain, mixed.
        let phase = (n / 500) % 3;
        let line = |rng: &mut Rng| [5u64, 9, 0x0abc_def0, 0x0fff_ffff][rng.below(4)];
        let push = (rng.below(10) < if phase == 1 { 3 } else { 8 }).then(|| {
            tag += 1;
            Entry { line: line(&mut rng), ordered: rng.below(8) != 0, tag }
        });
        let d = Drive {
            push,
            hz_a: (rng.below(3) == 0).then(|| line(&mut rng)),
            hz_b: (rng.below(4) == 0).then(|| line(&mut rng)),
            enable: rng.below(10) < if phase == 0 { 2 } else { 8 },
            reset: rng.below(3000) == 0,
        };
        let exp = pick(&model, &d);
        let seen = cycle(&mut q, &d);
        assert_eq!(seen.push_ready, model.len() < QUEUE_DEPTH && !d.reset, "cycle {n}: push_ready");
        assert_eq!(seen.issued, exp.map(|i| model[i]), "cycle {n}: issue (model {model:?})");
        assert_eq!(seen.cov_full, model.len() == QUEUE_DEPTH, "cycle {n}: cov_full");
        assert_eq!(seen.cov_overtake, exp.is_some_and(|i| i > 0), "cycle {n}: cov_overtake");
        let waiting = (0..model.len())
            .any(|i| model[i].ordered && model[..i].iter().any(|o| o.ordered && o.line == model[i].line));
        assert_eq!(seen.cov_line_wait, waiting, "cycle {n}: cov_line_wait");
        overtakes += seen.cov_overtake as usize;
        fulls += seen.cov_full as usize;
        waits += seen.cov_line_wait as usize;
        if d.reset {
            model.clear();
            resets += 1;
            continue;
        }
        if let Some(i) = exp {
            model.remove(i);
        }
        if let Some(e) = d.push {
            if seen.push_ready {
                model.push(e);
            }
        }
    }
    eprintln!("overtakes {overtakes}, full cycles {fulls}, line waits {waits}, resets {resets}");
    assert!(overtakes > 100 && fulls > 100 && waits > 100 && resets > 0);
}

/// Directed: A1 B A2 to lines A, B, A with A a hazard line: B overtakes; then A1, then A2.
#[test]
fn ordering_queue_overtake_and_order_within_line() {
    let mut q = OrderingQueue::default();
    q.connect_all();
    let idle = |push, hz_a, enable| Drive { push, hz_a, hz_b: None, enable, reset: false };
    cycle(&mut q, &Drive { push: None, hz_a: None, hz_b: None, enable: false, reset: true });
    let a1 = Entry { line: 1, ordered: true, tag: 1 };
    let b = Entry { line: 2, ordered: true, tag: 2 };
    let a2 = Entry { line: 1, ordered: true, tag: 3 };
    for e in [a1, b, a2] {
        assert!(cycle(&mut q, &idle(Some(e), None, false)).push_ready);
    }
    let s = cycle(&mut q, &idle(None, Some(1), true));
    assert_eq!(s.issued, Some(b));
    assert!(s.cov_overtake && s.cov_line_wait);
    assert_eq!(cycle(&mut q, &idle(None, None, true)).issued, Some(a1));
    assert_eq!(cycle(&mut q, &idle(None, None, true)).issued, Some(a2));
    assert_eq!(cycle(&mut q, &idle(None, None, true)).issued, None);
    // Full after QUEUE_DEPTH pushes with nothing issuing.
    for t in 0..QUEUE_DEPTH as u64 {
        assert!(cycle(&mut q, &idle(Some(Entry { line: t, ordered: true, tag: 10 + t }), None, false)).push_ready);
    }
    let s = cycle(&mut q, &idle(Some(Entry { line: 99, ordered: true, tag: 99 }), None, false));
    assert!(!s.push_ready && s.cov_full);
}
