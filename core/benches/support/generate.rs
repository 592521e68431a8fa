//! The generated documents of issue #17: `steps` steps, each with a description, `needs` on
//! one to three of the previous twenty steps, instructions and a three-line `output_schema`
//! (1,000 steps ≈ 0.27 MB, 5,000 ≈ 1.37 MB). Deterministic: the same text on every machine, so
//! the Rust benches, the npm bench and the reference's figure measure the same bytes.

/// A small deterministic generator (xorshift); benches must not depend on a random source.
struct Sequence(u64);

impl Sequence {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// A valid LOGIC.md document with `steps` steps.
pub fn generated(steps: usize) -> String {
    let mut sequence = Sequence(0x9E37_79B9_7F4A_7C15);
    let mut text = String::with_capacity(steps * 280 + 256);
    text.push_str(
        "---\nspec_version: \"1.0\"\nname: generated\ndescription: Generated benchmark document\n\
         reasoning:\n  strategy: cot\n  max_iterations: 3\nsteps:\n",
    );
    for i in 0..steps {
        text.push_str(&format!(
            "  step_{i}:\n    description: Step {i} combines its inputs\n"
        ));
        if i > 0 {
            let count = 1 + sequence.below(3);
            let mut needs: Vec<usize> = (0..count)
                .map(|_| i - 1 - sequence.below(i.min(20)))
                .collect();
            needs.sort_unstable();
            needs.dedup();
            let names: Vec<String> = needs.iter().map(|n| format!("step_{n}")).collect();
            text.push_str(&format!("    needs: [{}]\n", names.join(", ")));
        }
        text.push_str(&format!(
            "    instructions: Summarise the inputs of step {i}.\n"
        ));
        text.push_str(
            "    output_schema:\n      type: object\n      properties: {summary: {type: string}, score: {type: number}}\n      required: [summary]\n",
        );
    }
    text.push_str("---\n# Generated\n\nA generated document for the throughput benchmarks.\n");
    text
}
