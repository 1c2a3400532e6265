// A minimal event emitter with vscode.Event's shape, for modules that must not import vscode (so
// plain-Node unit tests can load them).

import type { Disposable } from '../node/disposable';

export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }

  /** Whether anyone listens (so an event that is costly to make can be skipped). */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
