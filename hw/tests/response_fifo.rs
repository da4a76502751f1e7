//! The response FIFO alone against a queue model: order, `out_valid`, back-to-back pushes and
//! pops, bypass into an empty FIFO (a push is on `out_valid` the next cycle), full, reset
//! (`out_valid` low in the reset cycle and the one after, empty afterwards).

mod common;
use common::{Rng, b128, seed, u128_of};
use hw::response_fifo::{RSP_FIFO_DEPTH, ResponseFifo};
use rust_hdl::prelude::*;
use std::collections::VecDeque;

#[test]
fn response_fifo_random_against_model() {
    random_against_model("response_fifo_random_against_model", RSP_FIFO_DEPTH);
}

/// The same for the deepest FIFO (32 places: four groups of 8 behind the group select).
#[test]
fn response_fifo_32_random_against_model() {
    random_against_model("response_fifo_32_random_against_model", 32);
}

fn random_against_model(name: &str, depth: usize) {
    let s = seed(name);
    let mut rng = Rng(s);
    let mut f = ResponseFifo::new(depth);
    f.connect_all();
    let mut model: VecDeque<u128> = VecDeque::new();
    let (mut pops, mut fulls, mut bypasses, mut resets) = (0, 0, 0, 0);
    let mut reset_prev = false;
    let mut tag = 0u128;
    for n in 0..40_000 {
        // Phases: fill (pop rarely), drain, mixed; the producer never pushes beyond the depth,
        // nor in a reset cycle or the one after (the unit's contract).
        let phase = (n / 300) % 3;
        let reset = rng.below(2000) == 0;
        let push = !reset && !reset_prev && model.len() < depth && rng.below(10) < if phase == 1 { 2 } else { 7 };
        let ready = rng.below(10) < if phase == 0 { 2 } else { 7 };
        tag += 1;
        let entry = (tag << 64) | (rng.next() as u128);
        f.clock.next = Clock::from(false);
        f.reset.next = reset;
        f.push.next = push;
        f.push_entry.next = b128(entry);
        f.out_ready.next = ready;
        assert!(simulate(&mut f, 1000));
        let valid = !reset && !reset_prev && !model.is_empty();
        assert_eq!(f.out_valid.val(), valid, "cycle {n}: out_valid (model {} held)", model.len());
        if valid {
            assert_eq!(u128_of(f.out_entry.val()), model[0], "cycle {n}: out_entry");
        }
        f.clock.next = Clock::from(true);
        assert!(simulate(&mut f, 1000));
        fulls += (model.len() == depth) as usize;
        bypasses += (push && model.is_empty()) as usize;
        if reset {
            model.clear();
            resets += 1;
        } else {
            if valid && ready {
                model.pop_front();
                pops += 1;
            }
            if push {
                model.push_back(entry);
            }
        }
        reset_prev = reset;
    }
    eprintln!("pops {pops}, full cycles {fulls}, pushes into an empty FIFO {bypasses}, resets {resets}");
    assert!(pops > 10_000 && fulls > 100 && bypasses > 100 && resets > 5);
}
