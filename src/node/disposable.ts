// The one way a thing owns what it must let go of (listeners, timers, processes, watchers), shared
// by the extension and the conductor: a DisposableStore collects them, and a class that owns some
// extends DisposableBase, register()s them, and asks isDisposed instead of keeping its own flag.
// Shaped like vscode.Disposable so either fits where the other is expected.

export interface Disposable {
  dispose(): void;
}

/** Disposables tied to one lifetime (the extension's, or one process's), disposed together, newest first. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Adds `d` (disposed at once if the store already is). */
  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.items.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the others alive.
      }
    }
  }
}

/**
 * A class that owns disposables. dispose() marks it disposed and disposes what it registered; a
 * subclass with more to do (stop a process, await a shutdown) overrides it, returns early when
 * isDisposed, and calls super.dispose() first, so work that arrives meanwhile sees isDisposed.
 */
export abstract class DisposableBase implements Disposable {
  private readonly owned = new DisposableStore();

  /** Whether dispose() was called. */
  protected get isDisposed(): boolean {
    return this.owned.isDisposed;
  }

  /** Disposed with this object (at once if it already is). */
  protected register<T extends Disposable>(d: T): T {
    return this.owned.add(d);
  }

  dispose(): void {
    this.owned.dispose();
  }
}
