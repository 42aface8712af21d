import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Messages } from '../i18n/localize.js';

/** A synthetic ReactiveControllerHost: a test connects, updates and disconnects it by hand and counts renders. */
export class SyntheticHost implements ReactiveControllerHost {
  readonly controllers: ReactiveController[] = [];
  locale = 'en';
  messages: Partial<Messages> = {};
  /** How many times a controller asked the host to render again. */
  updatesRequested = 0;
  updateComplete = Promise.resolve(true);
  connected = false;

  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
    if (this.connected) controller.hostConnected?.();
  }

  removeController(controller: ReactiveController): void {
    this.controllers.splice(this.controllers.indexOf(controller), 1);
  }

  requestUpdate(): void {
    this.updatesRequested += 1;
  }

  connect(): void {
    this.connected = true;
    for (const controller of this.controllers) controller.hostConnected?.();
  }

  disconnect(): void {
    this.connected = false;
    for (const controller of this.controllers) controller.hostDisconnected?.();
  }

  /** One render: what LitElement calls around `render()`. */
  update(): void {
    for (const controller of this.controllers) controller.hostUpdate?.();
    for (const controller of this.controllers) controller.hostUpdated?.();
  }
}
