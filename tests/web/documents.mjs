// Documents the studio tests share.

/** A DRTL topology with a node of every kind, wired as a chain with a gate and a review. */
export const EVERY_KIND = `name: every-kind
nodes:
  - id: draft
    type: generate
    prompt: Write the draft.
    output_key: draft
  - id: panel
    type: fan_out
    input: draft.draft
    participants:
      - {model: provider/model, persona: first}
    output_key: views
  - id: merge
    type: aggregate
    input: [panel.views]
    strategy: synthesize
    output_key: merged
  - id: council
    type: debate
    input: merge.merged
    max_rounds: 5
    participants:
      - {id: author, model: provider/model, role: author}
      - {id: critic, model: provider/model, role: reviewer}
    output_key: outcome
  - id: check
    type: verify
    input: council.outcome
    rules:
      - {id: std.check_links, target: urls, mode: block}
    output_key: report
  - id: decide
    type: gate
    input: check.report
    condition: input.blocking_failures == 0
    on_pass: publish
    on_fail: editor
  - id: editor
    type: review
    input: check.report
    actions:
      - retry: {next: draft}
      - reject
  - id: publish
    type: transform
    operations:
      - {set: state.variables.published, value: true}
edges:
  - {from: draft, to: panel}
  - {from: panel, to: merge}
  - {from: merge, to: council}
  - {from: council, to: check}
  - {from: check, to: decide}
`;
