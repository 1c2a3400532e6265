// OpenCtx in the extension host, wired in one place (docs/openctx.md): the configured providers,
// their mentions as an `@` menu source, and their annotations as hovers and code lenses.
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { withOpenCtxSessionConfig } from '../protocol/openctx';
import { OpenCtxAnnotations } from './openctxAnnotations';
import { OpenCtxProviders } from './openctxProviders';
import { OpenCtxSource } from './openctxSource';

export interface OpenCtxRegistration extends vscode.Disposable {
  providers: OpenCtxProviders;
  /** Owned by the `@` menu (ContextMenu disposes its sources). */
  source: OpenCtxSource;
  /**
   * A new session's params with the providers for the conductor's `openctx` component (the agent
   * can then call them as tools); unchanged when the chain has no such component (the settings
   * would otherwise reach the agent) or nothing is configured.
   */
  decorateSession<T extends object>(params: T, conductorComponents: string[]): T;
}

export function registerOpenCtx(log: Log): OpenCtxRegistration {
  const providers = new OpenCtxProviders(log);
  const source = new OpenCtxSource(() => providers.current(), providers.onDidChange, log);
  const annotations = new OpenCtxAnnotations(() => providers.current(), providers.onDidChange, log);
  const disposables: vscode.Disposable[] = [annotations, providers];
  return {
    providers,
    source,
    decorateSession: (params, conductorComponents) => {
      const config = providers.configuration();
      if (!conductorComponents.includes('openctx') || config.providers.length === 0) return params;
      return withOpenCtxSessionConfig(params, config);
    },
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
}
