// A component that forwards everything through its own handlers. It exists to measure the
// per-component cost of the chain (npm run bench) and to test that forwarding is lossless.
import type { Component, ComponentFactory, IncomingNotification, IncomingRequest } from '../chain/component';

class Passthrough implements Component {
  readonly name = 'passthrough';
  onRequest(request: IncomingRequest): void {
    request.forward();
  }
  onNotification(notification: IncomingNotification): void {
    notification.forward();
  }
}

export const passthroughFactory: ComponentFactory = {
  name: 'passthrough',
  description: 'Forwards every message unchanged (benchmarks and tests).',
  kind: 'component',
  create: () => new Passthrough(),
};
