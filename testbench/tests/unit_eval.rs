//! The default unit's model is clocked with one evaluation per cycle where it can be (the
//! shim's `rise_only`: the unit's outputs are registers or follow `reset`
//! alone). Here a random plan with stalls and resets runs on two fresh units, one clocked that
//! way and one with both halves of every cycle evaluated (`REDUNIT_UNIT_TWO_EVALS`): the
//! cycles, the responses and the coverage counts must be the same. A test binary of its own,
//! because it sets an environment variable that the shim reads when a unit is made.

use testbench::stimulus;
use testbench::unit::RtlUnit;
use testbench::unit_cosim::{self, Config};

const MEM: usize = sim::memory::DEFAULT_MEM_BYTES;

#[test]
fn one_evaluation_per_cycle_gives_what_two_give() {
    let seed = stimulus::seed_from_env().expect("REDUNIT_SEED");
    println!("unit_eval seed {seed:#x} (rerun with REDUNIT_SEED={seed:#x})");
    let plan = unit_cosim::random_plan(seed, &Config::new(MEM, 30_000));
    let run = |two_evals: bool| {
        // SAFETY: this binary's only test; no other thread reads the environment meanwhile.
        unsafe {
            if two_evals {
                std::env::set_var("REDUNIT_UNIT_TWO_EVALS", "1");
            } else {
                std::env::remove_var("REDUNIT_UNIT_TWO_EVALS");
            }
        }
        let mut unit = RtlUnit::new(MEM).unwrap();
        let obs = unit_cosim::drive(&mut unit, &plan).unwrap();
        assert!(obs.protocol.is_none(), "protocol error: {:?}", obs.protocol);
        (format!("{:?}", obs.batches), obs.dropped, unit.cycle(), unit.cov_counts(), unit.evaluations())
    };
    let one = run(false);
    let two = run(true);
    println!("{} cycles: {} evaluations, {} with both halves", one.2, one.4, two.4);
    assert!(two.4 >= 2 * two.2, "both halves of every cycle: {} evaluations in {} cycles", two.4, two.2);
    assert!(one.4 < one.2 + one.2 / 10, "one evaluation per cycle expected: {} in {} cycles", one.4, one.2);
    assert!(one.2 > 30_000, "the plan ran {} cycles", one.2);
    assert_eq!(one.2, two.2, "cycles: one evaluation {}, two {}", one.2, two.2);
    assert_eq!(one.1, two.1, "requests dropped by the resets");
    assert_eq!(one.3, two.3, "coverage counts");
    assert!(one.0 == two.0, "the responses differ between one and two evaluations per cycle");
}
