//! Golden-model throughput per family: `cargo bench -p testbench --bench model`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim::Form;

/// Operands from splitmix64, fixed seed: the same work every run.
fn operands(n: usize) -> Vec<(u128, u128)> {
    let mut s = 1u64;
    (0..n)
        .map(|_| {
            let w = |s: &mut u64| (sim::splitmix64_next(s) as u128) << 64 | sim::splitmix64_next(s) as u128;
            (w(&mut s), w(&mut s))
        })
        .collect()
}

fn families(c: &mut Criterion) {
    let ops = operands(4096);
    let families: [(&str, &[&str]); 5] = [
        ("integer", &["global.add.u32", "global.min.s64", "shared.inc.u32", "global.xor.b64"]),
        ("f32", &["global.add.f32", "shared.add.f32"]),
        ("f64", &["global.add.f64", "shared.add.f64"]),
        ("16-bit", &["global.add.noftz.f16", "shared.add.noftz.bf16x2", "global.add.noftz.bf16"]),
        ("vector", &["global.v8.f16.add.noftz", "global.v4.f32.add", "global.v4.bf16x2.min.noftz"]),
    ];
    let mut g = c.benchmark_group("apply");
    for (name, forms) in families {
        let forms: Vec<Form> = forms.iter().map(|s| s.parse().unwrap()).collect();
        g.throughput(Throughput::Elements((ops.len() * forms.len()) as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = 0u128;
                for &f in &forms {
                    for &(m, x) in &ops {
                        acc ^= if f.is_vector() {
                            sim::apply(f, m, x)
                        } else {
                            sim::apply_elem(f, m as u64, x as u64) as u128
                        };
                    }
                }
                black_box(acc)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, families);
criterion_main!(benches);
