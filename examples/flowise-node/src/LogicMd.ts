// A Flowise custom node that runs a LOGIC.md document: its `contracts.inputs` become the node's
// inputs, a chat model connected by the host answers the model calls, and logicmd's run driver
// (`createRun`) keeps the semantics — retries, gates, contracts, and refusing when an obligation is
// unmet. Flowise loads custom nodes with `require`, so this compiles to CommonJS, which requires the
// ESM package `logicmd` (Node ≥ 20.19 or 22.12: its Node entry loads the wasm synchronously).
import { readFileSync } from "node:fs";
import { join } from "node:path";

import type { ICommonObject, INode, INodeData, INodeParams } from "flowise-components";
import { createRun, parse } from "logicmd";
import type { ChatMessage, Json, ModelRequest, RunAction, TraceEvent } from "logicmd";

/** What the host connects as the `model` input: a LangChain chat model (`invoke` → a message). */
export interface ChatModel {
  invoke(messages: { role: string; content: string }[]): Promise<{ content: unknown }>;
}

/** The outcome of one run, as the node returns it. */
export interface LogicRunOutcome {
  status: string;
  output: Json;
  events: TraceEvent[];
}

/** A contract input as a Flowise input parameter. */
function parameter(input: { name: string; type?: string; required?: boolean; description?: string }): INodeParams {
  const type = input.type === "number" || input.type === "integer" ? "number" : input.type === "boolean" ? "boolean" : input.type === "string" || !input.type ? "string" : "json";
  return {
    label: input.name,
    name: input.name,
    type,
    description: input.description,
    optional: !input.required,
  };
}

/** A value typed into a Flowise field, as the contract's type wants it (JSON fields arrive as text). */
function value(param: INodeParams, raw: unknown): Json {
  if (param.type === "json" && typeof raw === "string") return JSON.parse(raw) as Json;
  if (param.type === "number" && typeof raw === "string") return Number(raw);
  return raw as Json;
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === "string" ? part : (part as { text?: string }).text ?? "")).join("");
  return String(content ?? "");
}

/** The messages of a model request, system prompt first, in LangChain's `{role, content}` form. */
function messages(request: ModelRequest): { role: string; content: string }[] {
  const roles: Record<ChatMessage["role"], string> = { system: "system", user: "user", assistant: "assistant" };
  return [{ role: "system", content: request.system }, ...request.messages.map((m) => ({ role: roles[m.role], content: m.content }))];
}

/** The node class for one document. Flowise registers `nodeClass` (the document beside this file). */
export function nodeClassFor(documentText: string, documentPath = "document.logic.md") {
  return class LogicMdNode implements INode {
    label: string;
    name: string;
    version = 1.0;
    type = "LogicMd";
    icon = "logicmd.svg";
    category = "Utilities";
    description: string;
    baseClasses = ["LogicMd", "string"];
    inputs: INodeParams[];

    constructor() {
      const front = frontmatter(documentText);
      this.name = `logicmd_${front.name ?? "document"}`.replace(/[^A-Za-z0-9_]/g, "_");
      this.label = `LOGIC.md: ${front.name ?? documentPath}`;
      this.description = front.description ?? "Runs a LOGIC.md document";
      this.inputs = [
        { label: "Chat Model", name: "model", type: "BaseChatModel" },
        ...front.inputs.map(parameter),
      ];
    }

    async init(nodeData: INodeData, input: string, _options?: ICommonObject): Promise<LogicRunOutcome> {
      return execute(documentText, documentPath, this.inputs, nodeData, input);
    }

    async run(nodeData: INodeData, input: string, _options?: ICommonObject): Promise<string | ICommonObject> {
      const outcome = await execute(documentText, documentPath, this.inputs, nodeData, input);
      return typeof outcome.output === "string" ? outcome.output : { ...outcome };
    }
  };
}

/** Runs the document; refuses (throws, naming the unmet obligations) rather than answer wrongly. */
async function execute(documentText: string, documentPath: string, params: INodeParams[], nodeData: INodeData, input: string): Promise<LogicRunOutcome> {
  const model = nodeData.inputs?.model as ChatModel | undefined;
  if (!model || typeof model.invoke !== "function") throw new Error("LOGIC.md node: connect a chat model to `model`");
  const values: Record<string, Json> = {};
  for (const param of params.slice(1)) {
    const raw = nodeData.inputs?.[param.name];
    if (raw !== undefined && raw !== "") values[param.name] = value(param, raw);
  }
  // The chat's message fills the first required text input left empty.
  const first = params.slice(1).find((p) => p.type === "string" && !p.optional && values[p.name] === undefined);
  if (first && input) values[first.name] = input;
  const run = createRun(documentText, values, { path: documentPath });
  try {
    const errors = run.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`LOGIC.md node: ${errors.map((d) => `${documentPath}:${d.line}:${d.column}: ${d.message}`).join("; ")}`);
    return await drive(run, model);
  } finally {
    run.free();
  }
}

type EngineRun = ReturnType<typeof createRun>;

async function drive(run: EngineRun, model: ChatModel): Promise<LogicRunOutcome> {
  const events: TraceEvent[] = [];
  for (;;) {
    const actions: RunAction[] = run.next();
    events.push(...run.events());
    if (actions.length === 0) throw new Error(`LOGIC.md node: the run stopped (${run.status()})`);
    for (const action of actions) {
      switch (action.action) {
        case "call_model": {
          const answer = await model.invoke(messages(action.request)).then(
            (message) => ({ observation: "model_response" as const, text: text(message.content) }),
            (error: unknown) => ({ observation: "model_error" as const, kind: "provider", message: String(error), retryable: true }),
          );
          run.feed(action.id, answer);
          break;
        }
        case "wait":
          await new Promise((resolve) => setTimeout(resolve, action.ms));
          run.feed(action.id, { observation: "waited" });
          break;
        case "call_tool":
          // Flowise tools are not wired in: a check that needs one is unverifiable, never passed.
          run.feed(action.id, { observation: "tool_result", passed: false, unverifiable: true });
          break;
        case "ask_review":
          throw new Error(`LOGIC.md node: \`${action.node}\` asks for a human review, which this node does not take`);
        case "complete":
          return { status: run.status(), output: action.output, events: [...events, ...run.events()] };
        case "refuse":
          throw new Error(`LOGIC.md node refused: ${action.unmet.map((u) => `${u.node}: ${u.rule} — ${u.reason}`).join("; ")}`);
        case "fail":
          throw new Error(`LOGIC.md node failed: ${action.error}`);
      }
    }
  }
}

/** The name, description and `contracts.inputs`, as the package parses them. */
function frontmatter(documentText: string) {
  const front = (parse(documentText).frontmatter ?? {}) as { name?: string; description?: string; contracts?: { inputs?: unknown } };
  const declared = Array.isArray(front.contracts?.inputs) ? front.contracts.inputs : [];
  const inputs = declared.filter((i): i is { name: string; type?: string; required?: boolean; description?: string } => typeof (i as { name?: unknown })?.name === "string");
  return { name: front.name, description: front.description, inputs };
}

const besideThis = join(__dirname, "..", "document.logic.md");
export const documentText = readFileSync(besideThis, "utf8");
export const nodeClass = nodeClassFor(documentText);
