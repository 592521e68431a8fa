//! Inline suppressions as users write them: `# logicmd: ignore[code]` on the line or the line
//! above, `# logicmd: ignore-file[code]`, honoured by `lint` and `check`, and reported when
//! unused or unreadable.

mod harness;

use harness::{run_in, transcript, Scratch};

const AGENT: &str = r#"---
spec_version: "1.0"
name: agent
# logicmd: ignore-file[missing-description] -- descriptions come later
steps:
  gather:
    output_schema: {type: object}  # logicmd: ignore[unverified-contract]
  report:
    # logicmd: ignore[duplicate-dependency] -- on purpose
    needs: [gather, gather]
  publish:
    needs: [report]  # logicmd: ignore[unknown-need, step-cycle]
  review:
    needs: [report]  # logicmd: ignore unused
  summarize:  # logicmd: ignore[unverified-contract]
    needs: [review]
    output_schema: {type: object}
---
"#;

#[test]
fn lint_and_check_honour_suppressions_and_report_the_unused_and_unreadable() {
    let scratch = Scratch::new("suppress");
    scratch.write("agent.logic.md", AGENT);
    let mut all = String::new();
    for args in [["lint", "agent.logic.md"], ["check", "agent.logic.md"]] {
        all.push_str(&format!("$ logicmd {}\n", args.join(" ")));
        all.push_str(&scratch.redact(&transcript(&run_in(&scratch.0, &args, None))));
        all.push('\n');
    }
    insta::assert_snapshot!("suppressions", all);
}
