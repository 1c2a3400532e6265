// The experimental LM provider (vendor `symposium`): the thin half of the design in docs/language-model.md. It lists one
// model per configured agent plus ElizACP, serializes each `provideLanguageModelChatResponse`
// call to the `vscodelm` process (lmProcess.ts) and turns the streamed parts back into VS Code
// part objects. All history, session and tool logic lives in conductor/lm/.
// VS Code's part classes are minified in the host, so parts are told apart with `instanceof`.
import * as vscode from 'vscode';
import type { AgentDefinition as SettingsAgent } from '../settings/agentDefinition';
import { BUILTIN_AGENT_NAME } from '../settings/agentDefinition';
import type { AgentDefinition, LmMessage, LmPart, LmTool } from '../protocol/lm';
import type { LmProcess } from './lmProcess';

/** Generous defaults: ACP agents manage their own context; these only bound what consumers send. */
export const DEFAULT_MAX_INPUT_TOKENS = 200_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000;
/** provideTokenCount's fixed cost of one image (its bytes say little about its tokens). */
export const IMAGE_TOKENS = 1_000;

export interface LmAgents {
  /** The usable agents by name (ElizACP included) and the components of the chain. */
  agents(): { agents: Record<string, SettingsAgent>; components: string[] | null };
  /** The token limits to announce (settings, else the defaults above). */
  tokenLimits(): { maxInputTokens: number; maxOutputTokens: number };
  /** Whether the agent said it takes images (its `promptCapabilities` once it ran); undefined: not known yet. */
  acceptsImages(agentName: string): boolean | undefined;
}

export const modelIdOf = (agentName: string): string =>
  agentName === BUILTIN_AGENT_NAME ? 'symposium-eliza' : `symposium-agent-${agentName}`;

export class SymposiumLmProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(
    private readonly process: LmProcess,
    private readonly source: LmAgents,
  ) {}

  /** `symposium.agents` or the token limits changed: VS Code asks for the models again. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    const { maxInputTokens, maxOutputTokens } = this.source.tokenLimits();
    return Object.keys(this.source.agents().agents).map((name) => ({
      id: modelIdOf(name),
      name: `Symposium: ${name}`,
      family: 'symposium',
      version: '1',
      tooltip: name === BUILTIN_AGENT_NAME ? 'ElizACP, the deterministic test agent' : `The ACP agent "${name}" through Symposium`,
      maxInputTokens,
      maxOutputTokens,
      // Known once the agent has run in this window (the chat's `initialize`); until then not
      // announced (the models are announced again when an agent becomes ready).
      capabilities: { toolCalling: true, imageInput: name === BUILTIN_AGENT_NAME || this.source.acceptsImages(name) === true },
    }));
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { agents, components } = this.source.agents();
    const entry = Object.entries(agents).find(([name]) => modelIdOf(name) === model.id);
    if (!entry) throw new Error(`no Symposium agent for model ${model.id}`);
    const [name, def] = entry;
    const agent: AgentDefinition =
      name === BUILTIN_AGENT_NAME
        ? { eliza: { deterministic: true } }
        : {
            mcp_server: {
              name,
              command: def.command,
              args: def.args,
              env: Object.entries(def.env).map(([n, value]) => ({ name: n, value })),
            },
          };
    const tools: LmTool[] = (options.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    await this.process.provide(
      { modelId: model.id, messages: messages.map(toLmMessage), agent, tools, ...(components ? { components } : {}) },
      (part) => {
        if (part.type === 'text') progress.report(new vscode.LanguageModelTextPart(part.value));
        else if (part.type === 'tool_call')
          progress.report(new vscode.LanguageModelToolCallPart(part.callId, part.name, (part.input ?? {}) as object));
      },
      token,
    );
  }

  /** Heuristic (documented in docs/language-model.md): characters / 4, an image a fixed IMAGE_TOKENS. */
  provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    if (typeof text === 'string') return Promise.resolve(Math.ceil(text.length / 4));
    const parts = toLmMessage(text).content;
    let chars = 0;
    let images = 0;
    const walk = (ps: LmPart[]): void => {
      for (const p of ps) {
        if (p.type === 'text') chars += p.value.length;
        else if (p.type === 'image') images++;
        else if (p.type === 'tool_call') chars += p.name.length + JSON.stringify(p.input ?? {}).length;
        else walk(p.content);
      }
    };
    walk(parts);
    return Promise.resolve(Math.ceil(chars / 4) + images * IMAGE_TOKENS);
  }
}

export function toLmMessage(m: vscode.LanguageModelChatRequestMessage): LmMessage {
  return {
    role: m.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user',
    content: m.content.map(toLmPart).filter((p): p is LmPart => p !== undefined),
  };
}

function toLmPart(p: unknown): LmPart | undefined {
  if (p instanceof vscode.LanguageModelTextPart) return { type: 'text', value: p.value };
  if (p instanceof vscode.LanguageModelToolCallPart) return { type: 'tool_call', callId: p.callId, name: p.name, input: p.input };
  if (p instanceof vscode.LanguageModelToolResultPart)
    return { type: 'tool_result', callId: p.callId, content: p.content.map(toLmPart).filter((x): x is LmPart => x !== undefined) };
  // LanguageModelDataPart joined the API after 1.104: recognized by shape, not by class.
  const data = p as { mimeType?: unknown; data?: unknown };
  if (typeof data.mimeType === 'string' && data.data instanceof Uint8Array) {
    if (data.mimeType.startsWith('image/'))
      return { type: 'image', mimeType: data.mimeType, data: Buffer.from(data.data).toString('base64') };
    if (data.mimeType.startsWith('text/') || data.mimeType.includes('json'))
      return { type: 'text', value: Buffer.from(data.data).toString('utf8') };
  }
  return undefined;
}
