// The experimental LM provider (docs/language-model.md): registered only with
// symposium.enableExperimentalLM on (registration.ts follows the setting live). Its models come
// from the user's agents; an agent that starts in the chat tells what it accepts (images).
import * as vscode from 'vscode';
import type { ExtensionCore } from '../activation/core';
import { BUILTIN_AGENT_NAME } from '../settings/agentDefinition';
import type { AgentPool } from '../agents/agentPool';
import { DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS } from './provider';
import { LmRegistration } from './registration';

export function registerLm(core: ExtensionCore, pool: AgentPool): LmRegistration {
  const { settings, runtime } = core;
  const lm = new LmRegistration({
    enabled: () => settings.enableExperimentalLM(),
    source: {
      agents: () => {
        const s = settings.agentSettings(runtime);
        // An untrusted workspace gets the built-in agent only, as the chat does.
        const agents = vscode.workspace.isTrusted ? s.agents : { [BUILTIN_AGENT_NAME]: s.agents[BUILTIN_AGENT_NAME]! };
        return { agents, components: s.components };
      },
      tokenLimits: () => settings.lmTokenLimits({ maxInputTokens: DEFAULT_MAX_INPUT_TOKENS, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS }),
      acceptsImages: (name) => {
        const running = pool.all().filter((a) => a.agentName === name && a.currentState === 'running');
        const actor = running[running.length - 1];
        return actor ? actor.promptCapabilities.image === true : undefined;
      },
    },
    runtime,
    log: core.log,
    onStderrLine: (line) => core.agentChannel.info(`[lm] ${line}`),
  });
  core.context.subscriptions.push(
    lm,
    pool.onDidChangeActorState((a) => {
      if (a.currentState === 'running') lm.refreshModels();
    }),
  );
  return lm;
}
