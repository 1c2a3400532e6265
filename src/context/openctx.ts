// OpenCtx in the extension host, wired in one place (docs/openctx.md): the configured providers,
// their mentions as an `@` menu source, and their annotations as hovers and code lenses.
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { OpenCtxAnnotations } from './openctxAnnotations';
import { OpenCtxProviders } from './openctxProviders';
import { OpenCtxSource } from './openctxSource';

export interface OpenCtxRegistration extends vscode.Disposable {
  providers: OpenCtxProviders;
  /** Owned by the `@` menu (ContextMenu disposes its sources). */
  source: OpenCtxSource;
}

export function registerOpenCtx(log: Log): OpenCtxRegistration {
  const providers = new OpenCtxProviders(log);
  const source = new OpenCtxSource(() => providers.current(), providers.onDidChange, log);
  const annotations = new OpenCtxAnnotations(() => providers.current(), providers.onDidChange, log);
  const disposables: vscode.Disposable[] = [annotations, providers];
  return {
    providers,
    source,
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
}
