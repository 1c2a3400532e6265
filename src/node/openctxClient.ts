// The OpenCtx client: asks the configured providers (HTTP endpoints, or JavaScript modules loaded
// from `file://` URIs) for `meta`, `mentions`, `items` and `annotations`, one implementation for
// the extension host (@ menu, hovers, code lenses) and the conductor (the `openctx` MCP tools).
//
// Why not `@openctx/client` (0.0.30, evaluated for this): it has no timeout (a hanging HTTP
// provider hangs every caller), passes answers through unvalidated, knows only the newer `meta`
// shape, treats any `https://…/x.js` URL as code to download and evaluate (we run only modules
// the user configured as `file://`), is ESM-only on observables with three more dependencies, and
// this shared Node layer imports nothing but node:* (src/node/layer.spec.ts). The protocol is four
// JSON methods, so this file is the client; validation lives in src/protocol/openctx.ts.
//
// Every provider is on its own: a failure, a timeout (default 5 s), an answer over 10 MiB (its
// download is stopped there, cappedBody.ts) or a malformed answer is reported through `onProblem`
// with the provider's URI and costs only that provider's results.
import { pathToFileURL } from 'node:url';
import { readCappedText } from './cappedBody';
import { isObject, type JsonObject } from '../protocol/guards';
import {
  selectorsMatch,
  validateAnnotations,
  validateItems,
  validateMentions,
  validateMeta,
  type OpenCtxAnnotation,
  type OpenCtxItem,
  type OpenCtxMention,
  type OpenCtxMeta,
  type Validated,
} from '../protocol/openctx';
import { errorText } from '../protocol/errorText';

export interface OpenCtxProviderConfig {
  /** `http(s)://` endpoint or `file://` module URI. */
  uri: string;
  /** Sent with every request to this provider, and nothing else of the user's. */
  settings: JsonObject;
}

export interface OpenCtxClientOptions {
  providers: readonly OpenCtxProviderConfig[];
  /** Per request (module import included). */
  timeoutMs?: number;
  /** Whether `file://` modules may be loaded (they are code: trusted workspaces only). */
  allowModules: boolean;
  /** A provider failed, timed out, or answered something (partly) malformed. */
  onProblem(providerUri: string, message: string): void;
}

export interface ProviderMeta {
  provider: string;
  meta: OpenCtxMeta;
}
export interface ProviderMention {
  provider: string;
  mention: OpenCtxMention;
}
export interface ProviderItem {
  provider: string;
  item: OpenCtxItem;
}
export interface ProviderAnnotation {
  provider: string;
  annotation: OpenCtxAnnotation;
}
export interface CallOptions {
  /** Only this provider (its URI, or its meta name). */
  provider?: string;
  signal?: AbortSignal;
}

type Method = 'meta' | 'mentions' | 'items' | 'annotations';
type Transport = (method: Method, params: JsonObject, signal: AbortSignal) => Promise<unknown>;

const DEFAULT_TIMEOUT_MS = 5_000;
/** A provider whose meta failed is not asked again for this long (a hanging one would cost a timeout per call). */
const META_RETRY_MS = 30_000;
/** An answer over this many bytes is refused, and its download stopped there. */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Of an error answer (HTTP status not OK), only this much is read, for the message. */
const MAX_ERROR_BYTES = 64 * 1024;

/**
 * `openctx.providers` (provider URI → settings object, or true / false) → the providers to use and
 * what was wrong with the rest. Relative module paths (`./provider.js`) are resolved against
 * `baseFolder`; without one they are refused.
 */
export function parseProviderSettings(raw: unknown, baseFolder?: string): { providers: OpenCtxProviderConfig[]; problems: string[] } {
  const providers: OpenCtxProviderConfig[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { providers, problems };
  if (!isObject(raw)) return { providers, problems: ['openctx.providers must be an object of provider URI → settings'] };
  for (const [key, value] of Object.entries(raw)) {
    if (value === false) continue;
    if (value !== true && !isObject(value)) {
      problems.push(`openctx.providers["${key}"] must be a settings object, true or false`);
      continue;
    }
    let uri: string;
    if (key.startsWith('./') || key.startsWith('../')) {
      if (!baseFolder) {
        problems.push(`openctx.providers["${key}"]: a relative module path needs a workspace folder`);
        continue;
      }
      uri = pathToFileURL(`${baseFolder}/${key}`).href;
    } else if (/^(https?|file):\/\//i.test(key)) uri = new URL(key).href;
    else {
      problems.push(`openctx.providers["${key}"]: only http(s)://, file:// and ./relative provider URIs are supported`);
      continue;
    }
    providers.push({ uri, settings: value === true ? {} : jsonCopy(value) });
  }
  return { providers, problems };
}

export class OpenCtxClient {
  private readonly timeoutMs: number;
  private readonly transports = new Map<string, Transport>();
  private readonly metas = new Map<string, MetaEntry>();
  private readonly disposed = new AbortController();

  constructor(private readonly options: OpenCtxClientOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get providerUris(): string[] {
    return this.options.providers.map((p) => p.uri);
  }

  /** Every provider whose `meta` answered, in configuration order. */
  async meta(options: CallOptions = {}): Promise<ProviderMeta[]> {
    // Named by URI: only that provider is asked (a slow one elsewhere does not hold this call up).
    const byUri = this.options.providers.filter((p) => p.uri === options.provider);
    const asked = byUri.length ? byUri : this.options.providers;
    const metas = await Promise.all(asked.map(async (p) => ({ provider: p.uri, meta: await this.metaOf(p, options.signal) })));
    return metas.flatMap((m) =>
      m.meta !== undefined && this.selected(m.provider, m.meta, options.provider) ? [{ provider: m.provider, meta: m.meta }] : [],
    );
  }

  /** `mentions {query}` from every provider that offers mentions. */
  async mentions(query: string, options: CallOptions = {}): Promise<ProviderMention[]> {
    return this.fanOut(
      'mentions',
      options,
      (m) => m.mentions,
      { query },
      validateMentions,
      (provider, mention) => ({ provider, mention }),
    );
  }

  /**
   * `items {mention?, message?}`; with a mention, only the provider that gave it (`options.provider`)
   * is asked. A provider is asked for a mention's items whatever its meta says, as the reference
   * client does: many declare only `mentions` and still answer `items` for their own; `meta.items`
   * scopes the message-only requests.
   */
  async items(params: { mention?: OpenCtxMention; message?: string }, options: CallOptions = {}): Promise<ProviderItem[]> {
    const wire: JsonObject = {
      ...(params.mention ? { mention: params.mention } : {}),
      ...(params.message !== undefined ? { message: params.message } : {}),
    };
    return this.fanOut(
      'items',
      options,
      (m) => params.mention !== undefined || m.items,
      wire,
      validateItems,
      (provider, item) => ({ provider, item }),
    );
  }

  /** `annotations {uri, content}` from the providers whose selectors match the document. */
  async annotations(params: { uri: string; content: string }, options: CallOptions = {}): Promise<ProviderAnnotation[]> {
    return this.fanOut(
      'annotations',
      options,
      (m) => m.annotations && selectorsMatch(m.annotationSelectors, params.uri, params.content),
      params,
      validateAnnotations,
      (provider, annotation) => ({ provider, annotation }),
    );
  }

  dispose(): void {
    this.disposed.abort();
    this.metas.clear();
  }

  private selected(provider: string, meta: OpenCtxMeta, only: string | undefined): boolean {
    return only === undefined || provider === only || meta.name === only;
  }

  private async fanOut<T, R>(
    method: Exclude<Method, 'meta'>,
    options: CallOptions,
    offers: (m: OpenCtxMeta) => boolean,
    params: JsonObject,
    validate: (raw: unknown) => Validated<T>,
    wrap: (provider: string, value: T) => R,
  ): Promise<R[]> {
    const targets = (await this.meta(options)).filter((m) => offers(m.meta));
    const results = await Promise.all(
      targets.map(async ({ provider }) => {
        const config = this.options.providers.find((p) => p.uri === provider)!;
        try {
          const raw = await this.call(config, method, params, options.signal);
          const { values, dropped } = validate(raw);
          for (const d of dropped) this.options.onProblem(provider, `${method}: dropped ${d}`);
          return values.map((v) => wrap(provider, v));
        } catch (e) {
          if (!options.signal?.aborted) this.options.onProblem(provider, `${method} failed: ${messageOf(e)}`);
          return [];
        }
      }),
    );
    return results.flat();
  }

  private metaOf(config: OpenCtxProviderConfig, signal: AbortSignal | undefined): Promise<OpenCtxMeta | undefined> {
    let entry = this.metas.get(config.uri);
    // A failed meta is asked again only after a while; a good one until the client is replaced.
    if (!entry || (entry.failed && Date.now() - entry.at >= META_RETRY_MS)) {
      const fresh: MetaEntry = { at: Date.now(), failed: false, meta: Promise.resolve(undefined) };
      fresh.meta = this.call(config, 'meta', {}, undefined)
        .then((raw) => {
          const m = validateMeta(raw, config.uri);
          if (typeof m === 'string') throw new Error(m);
          return m;
        })
        .catch((e: unknown) => {
          this.options.onProblem(config.uri, `meta failed: ${messageOf(e)}`);
          fresh.failed = true;
          fresh.at = Date.now();
          return undefined;
        });
      this.metas.set(config.uri, fresh);
      entry = fresh;
    }
    return signal ? raceAbort(entry.meta, signal) : entry.meta;
  }

  /** One request, bounded by the timeout, the caller's signal and disposal. */
  private async call(config: OpenCtxProviderConfig, method: Method, params: JsonObject, signal: AbortSignal | undefined): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const all = AbortSignal.any([timeout, this.disposed.signal, ...(signal ? [signal] : [])]);
    const transport = this.transportFor(config);
    const answer = transport(method, params, all);
    try {
      return await raceAbort(answer, all);
    } catch (e) {
      if (timeout.aborted) throw new Error(`no answer within ${this.timeoutMs} ms`);
      throw e;
    }
  }

  private transportFor(config: OpenCtxProviderConfig): Transport {
    let t = this.transports.get(config.uri);
    if (!t) {
      if (/^https?:/i.test(config.uri)) t = httpTransport(config);
      else if (config.uri.startsWith('file:'))
        t = this.options.allowModules ? moduleTransport(config) : refused('module providers are code: loaded only in a trusted workspace');
      else t = refused('unsupported provider URI');
      this.transports.set(config.uri, t);
    }
    return t;
  }
}

interface MetaEntry {
  at: number;
  failed: boolean;
  meta: Promise<OpenCtxMeta | undefined>;
}

function refused(why: string): Transport {
  return () => Promise.reject(new Error(why));
}

function httpTransport(config: OpenCtxProviderConfig): Transport {
  return async (method, params, signal) => {
    const response = await fetch(config.uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
      body: JSON.stringify({ method, params, settings: config.settings }),
      signal,
      redirect: 'error',
    });
    if (!response.ok) {
      const detail = await readCappedText(response, MAX_ERROR_BYTES).catch(() => '');
      throw new Error(`HTTP ${response.status} ${detail.slice(0, 200)}`);
    }
    const text = await readCappedText(response, MAX_RESPONSE_BYTES);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`the answer is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
    }
    if (!isObject(body)) throw new Error('the answer is not a JSON object');
    if (body.error !== undefined) {
      const err = isObject(body.error) ? body.error : {};
      throw new Error(
        `provider error ${String(err.code ?? '')}: ${typeof err.message === 'string' ? err.message : JSON.stringify(body.error)}`,
      );
    }
    if (!('result' in body)) throw new Error('the answer has neither result nor error');
    return body.result;
  };
}

type ProviderModule = Partial<Record<Method, (params: unknown, settings: unknown) => unknown>>;

function moduleTransport(config: OpenCtxProviderConfig): Transport {
  let loaded: Promise<ProviderModule> | undefined;
  const load = (): Promise<ProviderModule> =>
    (loaded ??= importModule(config.uri).then((mod) => {
      const provider = isObject(mod) && isObject(mod.default) ? mod.default : mod;
      if (!isObject(provider) || typeof provider.meta !== 'function')
        throw new Error('the module has no default export with a meta method');
      return provider as ProviderModule;
    }));
  return async (method, params) => {
    let provider: ProviderModule;
    try {
      provider = await load();
    } catch (e) {
      loaded = undefined; // fixed on disk, loaded on a later call
      throw new Error(`could not load the module: ${messageOf(e)}`);
    }
    const fn = provider[method];
    if (typeof fn !== 'function') return method === 'meta' ? {} : [];
    // Each call gets its own plain copy: a provider must not change our params or settings objects
    // (and settings read from VS Code are proxies, which structuredClone refuses).
    return await fn.call(provider, jsonCopy(params), jsonCopy(config.settings));
  };
}

/** A real dynamic import (esbuild's CommonJS bundles keep `import()` as it is), so ES modules load too. */
const importModule = (uri: string): Promise<unknown> => import(uri);

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const abortReason = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
/**
 * A plain deep copy of JSON-like data (objects, arrays, primitives; anything else dropped). Not
 * structuredClone or JSON: settings read from VS Code are proxies both refuse.
 */
function jsonCopy<T>(v: T, depth = 0): T {
  if (depth > 50) return undefined as T;
  if (Array.isArray(v)) return v.map((x: unknown) => jsonCopy(x, depth + 1)) as T;
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = jsonCopy((v as Record<string, unknown>)[k], depth + 1);
      if (x !== undefined) out[k] = x;
    }
    return out as T;
  }
  return typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint' ? (undefined as T) : v;
}
const messageOf = (e: unknown): string => errorText(e);
