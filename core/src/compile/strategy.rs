//! What each reasoning strategy (spec §3.2) asks of the model.

/// The instruction for `strategy`.
pub fn instruction(strategy: &str) -> &'static str {
    match strategy {
        "cot" => "Reason step by step. Write out each deduction before the conclusion it supports, and check every step against the previous ones.",
        "react" => "Alternate Thought, Action and Observation: think about what you need, take one action (use a tool) to get it, then reason about what you observed before the next action. Stop acting once you can answer.",
        "tot" => "Explore several candidate lines of reasoning as a tree of thoughts. Evaluate each candidate, prune the weak ones, and expand the most promising until one solution stands out.",
        "got" => "Treat intermediate thoughts as a graph: generate candidates, score them, refine the best, and aggregate partial results where they agree.",
        "plan-execute" => "First write a numbered plan. Then execute it one step at a time, checking each result; revise the plan when a step fails.",
        "custom" => "Follow the custom reasoning loop described by the configuration below.",
        _ => "Reason carefully and explicitly before answering.",
    }
}
