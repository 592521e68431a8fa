// The document the builder opens with.
export const STARTER = `---
spec_version: "1.0"
name: research-brief
description: Researches a question and writes a brief
reasoning:
  strategy: react
visual:
  icon: brain
  inspector:
    - key: reasoning.strategy
      label: Reasoning Strategy
      type: select
      options: [cot, react, plan-execute]
      default: react
contracts:
  inputs:
    - name: question
      type: string
      required: true
steps:
  # find sources first
  research:
    description: Find and read sources
    instructions: Prefer primary sources.
    output_schema: {type: object}
  outline:
    description: Outline the brief
    needs: [research]
  write:
    description: Write the brief
    needs: [outline]  # the last step
---
# Research brief
`;
