// Features that activation does not need ship as bundles of their own (out/<name>.js, built by
// esbuild.mjs, kept within budget by scripts/bundle-budget.mjs), so the extension bundle stays
// small and activation fast. Each is required the first time its feature is used, through here.
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The extension's lazily loaded bundles (their entry points: src/**\/<name>Bundle.ts). */
export type LazyBundleName = 'registry' | 'lm' | 'trafficViewer';

/** Requires out/<name>.js of the extension at `extensionPath` (Node's require cache keeps it). */
export function requireBundle<T>(extensionPath: string, name: LazyBundleName): T {
  return createRequire(__filename)(join(extensionPath, 'out', `${name}.js`)) as T;
}
