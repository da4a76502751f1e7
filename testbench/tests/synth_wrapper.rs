//! The ECP5 flow's timing wrapper sees every port of the unit's generated Verilog: a port it
//! missed would leave that logic undriven or unread, and synthesis would remove it.

#[test]
fn the_timing_wrapper_registers_every_port_of_the_unit() {
    let v = hw::unit_verilog(sim::memory::DEFAULT_MEM_BYTES);
    let header = v.lines().find(|l| l.starts_with("module top(")).expect("module top");
    let ports: Vec<&str> = header["module top(".len()..].trim_end_matches(");").split(',').collect();
    assert_eq!(ports.len(), 15, "{header}");
    let (wrapped, ff) = testbench::synth::register_ports(&v).unwrap();
    // Every port bit besides the clock has a register of its own in the wrapper.
    let bits: u64 = v
        .lines()
        .skip_while(|l| !l.starts_with("module top("))
        .take_while(|l| !l.starts_with("endmodule"))
        .filter_map(|l| {
            let t = l.trim();
            let rest = t.strip_prefix("input wire").or_else(|| t.strip_prefix("output reg"))?;
            let name = rest.trim().trim_end_matches(';');
            if name == "clock" {
                return None;
            }
            Some(name.strip_prefix('[').map_or(1, |r| r.split(':').next().unwrap().trim().parse::<u64>().unwrap() + 1))
        })
        .sum();
    assert!(bits > 300, "{bits} port bits");
    assert!(ff >= bits, "{ff} wrapper flip-flops for {bits} port bits");
    for p in ports.iter().filter(|p| **p != "clock") {
        assert!(wrapped.contains(&format!(".{p}(")), "the wrapper leaves port {p} unconnected");
    }
}
