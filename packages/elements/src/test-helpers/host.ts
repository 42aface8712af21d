import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Messages } from '../i18n/localize.js';

type Hook = 'hostConnected' | 'hostDisconnected' | 'hostUpdate' | 'hostUpdated';

/** A test host's controllers, kept as LitElement keeps them: one added to a connected host is connected at once. */
export class HostControllers {
  private readonly list: ReactiveController[] = [];

  constructor(private readonly isConnected: () => boolean) {}

  add(controller: ReactiveController): void {
    this.list.push(controller);
    if (this.isConnected()) controller.hostConnected?.();
  }

  remove(controller: ReactiveController): void {
    this.list.splice(this.list.indexOf(controller), 1);
  }

  /** Calls `hook` of every controller, in the order they were added. */
  call(hook: Hook): void {
    for (const controller of this.list) controller[hook]?.();
  }
}

/** A synthetic ReactiveControllerHost: a test connects, updates and disconnects it by hand and counts renders. */
export class SyntheticHost implements ReactiveControllerHost {
  readonly controllers = new HostControllers(() => this.connected);
  locale = 'en';
  messages: Partial<Messages> = {};
  /** How many times a controller asked the host to render again. */
  updatesRequested = 0;
  updateComplete = Promise.resolve(true);
  connected = false;

  addController(controller: ReactiveController): void {
    this.controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.controllers.remove(controller);
  }

  requestUpdate(): void {
    this.updatesRequested += 1;
  }

  connect(): void {
    this.connected = true;
    this.controllers.call('hostConnected');
  }

  disconnect(): void {
    this.connected = false;
    this.controllers.call('hostDisconnected');
  }

  /** One render: what LitElement calls around `render()`. */
  update(): void {
    this.controllers.call('hostUpdate');
    this.controllers.call('hostUpdated');
  }
}
