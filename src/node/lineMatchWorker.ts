// Matching text against a regular expression an agent chose, where a deadline can stop it.
// JavaScript's regex engine backtracks: `(a+)+b` over a line of 27 `a`s runs for seconds, each
// more character doubles that, and nothing (no timer, no signal) interrupts a running match on the
// thread that runs it. The process that searched on its own thread (the conductor's event loop,
// the extension host's main thread) stopped answering anyone. So the matching runs in a worker
// thread, and the thread that asked waits with a deadline: past it, or when the caller cancels,
// the worker is terminated (the one way to stop a running regex) and a new one serves the next
// search. A line is matched on its first MAX_LINE_CHARS characters only, which bounds what a
// merely slow (polynomial) pattern costs per line.
//
// One worker per process, started on first use, serves the searches in turn and ends after a
// while idle; it never keeps a process alive on its own (unref). Its code is inline (evaluated
// from the string below, plain CommonJS with node:* only) so that it needs no bundle of its own:
// the same source runs from the extension's bundle, the conductor's and from source under tsx.
import { Worker } from 'node:worker_threads';

/** Characters of a line that are matched; the rest of a longer line is not searched. */
export const MAX_LINE_CHARS = 10_000;
/** Characters of a hit's line kept as its snippet (trimmed first). */
export const SNIPPET_CHARS = 200;
/** The worker ends after this long without work (a new one starts with the next search). */
const IDLE_MS = 30_000;
/** Memory a worker may use; past it, it is ended and the search fails (it holds one batch of text). */
const WORKER_HEAP_MB = 256;

/** A hit in one file of a batch: 1-based line, columns in code points, as IDE-operation results. */
export interface LineHit {
  /** Index of the file in the batch. */
  file: number;
  line: number;
  column: number;
  endColumn: number;
  snippet: string;
}

export interface MatchBatch {
  /** `RegExp.source` and `.flags` of a regex compiled on the caller's side (so already valid). */
  source: string;
  flags: string;
  texts: string[];
  /** Hits to return at most; every hit is still counted. */
  keep: number;
}

export interface MatchReply {
  hits: LineHit[];
  /** Matching lines, kept or not. */
  total: number;
  /** Time the worker took for this batch, queueing excluded. */
  elapsedMs: number;
}

/** The batch did not finish within its budget; the worker was stopped. */
export class MatchTimeoutError extends Error {}
/** The caller's signal aborted while the batch ran or waited; the worker was stopped if it ran. */
export class MatchCancelledError extends Error {}

const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
let cached = { key: '', re: undefined };
function codePoints(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}
function match(job) {
  const key = job.flags + '/' + job.source;
  if (cached.key !== key) cached = { key, re: new RegExp(job.source, job.flags) };
  const re = cached.re;
  const hits = [];
  let total = 0;
  for (let f = 0; f < job.texts.length; f++) {
    const lines = job.texts[f].split('\\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      if (line.endsWith('\\r')) line = line.slice(0, -1);
      if (line.length > ${MAX_LINE_CHARS}) line = line.slice(0, ${MAX_LINE_CHARS});
      const m = re.exec(line);
      if (!m) continue;
      total++;
      if (hits.length >= job.keep) continue;
      const column = codePoints(line.slice(0, m.index)) + 1;
      const trimmed = line.trim();
      hits.push({
        file: f,
        line: i + 1,
        column,
        endColumn: column + codePoints(m[0]),
        snippet: trimmed.length > ${SNIPPET_CHARS} ? trimmed.slice(0, ${SNIPPET_CHARS}) + '\\u2026' : trimmed,
      });
    }
  }
  return { hits, total };
}
parentPort.on('message', (job) => {
  const started = performance.now();
  try {
    const r = match(job);
    parentPort.postMessage({ hits: r.hits, total: r.total, elapsedMs: performance.now() - started });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
});
`;

interface Job {
  batch: MatchBatch;
  budgetMs: number;
  signal: AbortSignal | undefined;
  resolve(reply: MatchReply): void;
  reject(err: Error): void;
}

interface Running {
  job: Job;
  worker: Worker;
  deadline: NodeJS.Timeout;
  onAbort: () => void;
}

/** Runs batches one at a time on its worker thread; a batch past its budget ends the worker. */
class LineMatchWorker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: Running | undefined;
  private idle: NodeJS.Timeout | undefined;

  run(batch: MatchBatch, budgetMs: number, signal?: AbortSignal): Promise<MatchReply> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new MatchCancelledError('search cancelled'));
      this.queue.push({ batch, budgetMs, signal, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      this.idle ??= setTimeout(() => this.retire(), IDLE_MS).unref();
      return;
    }
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    if (job.signal?.aborted) {
      job.reject(new MatchCancelledError('search cancelled'));
      return this.next();
    }
    const worker = (this.worker ??= this.spawn());
    // A referenced timer: the process stays up while a search waits on the (unref'd) worker.
    const deadline = setTimeout(() => this.stop(new MatchTimeoutError(`took longer than ${job.budgetMs} ms`)), Math.max(0, job.budgetMs));
    const onAbort = (): void => this.stop(new MatchCancelledError('search cancelled'));
    job.signal?.addEventListener('abort', onAbort, { once: true });
    this.running = { job, worker, deadline, onAbort };
    worker.postMessage(job.batch);
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.unref();
    worker.on('message', (reply: MatchReply | { error: string }) => {
      if ('error' in reply) this.settle(worker, new Error(reply.error));
      else this.settle(worker, reply);
    });
    // Out of memory, or a crash: the batch it ran fails, the next one gets a new worker.
    worker.on('error', (err) => this.discard(worker, err));
    worker.on('exit', (code) => this.discard(worker, new Error(`the search worker exited (code ${code})`)));
    return worker;
  }

  /** Ends the batch that runs, with `outcome`, and starts the next. */
  private settle(worker: Worker, outcome: MatchReply | Error): void {
    const running = this.running;
    if (!running || running.worker !== worker) return;
    this.running = undefined;
    clearTimeout(running.deadline);
    running.job.signal?.removeEventListener('abort', running.onAbort);
    if (outcome instanceof Error) running.job.reject(outcome);
    else running.job.resolve(outcome);
    this.next();
  }

  /** Ends the worker in the middle of a batch (deadline or cancel); the batch fails with `error`. */
  private stop(error: Error): void {
    const running = this.running;
    if (!running) return;
    this.forget(running.worker);
    void running.worker.terminate();
    this.settle(running.worker, error);
  }

  private discard(worker: Worker, error: Error): void {
    this.forget(worker);
    this.settle(worker, error);
  }

  private forget(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
  }

  private retire(): void {
    this.idle = undefined;
    if (this.running || this.queue.length) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}

let shared: LineMatchWorker | undefined;

/**
 * Matches every line of `batch.texts` against the regex, on the process's search worker. Rejects
 * with MatchTimeoutError when the worker spends more than `budgetMs` on it (it is then ended), and
 * with MatchCancelledError when `signal` aborts first.
 */
export function matchLines(batch: MatchBatch, budgetMs: number, signal?: AbortSignal): Promise<MatchReply> {
  return (shared ??= new LineMatchWorker()).run(batch, budgetMs, signal);
}
