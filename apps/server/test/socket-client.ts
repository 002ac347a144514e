import { SOCKET_PATH } from '@pipwise/domain';
import WebSocket from 'ws';

export interface Frame {
  type: string;
  data?: unknown;
}

/**
 * A test socket client that records every frame. `settle()` sends a ping and waits for its pong: the
 * server handles one connection's messages in order and writes frames to one TCP stream, so whatever
 * the server sent before the pong has arrived when it resolves.
 */
export class TestSocket {
  readonly frames: Frame[] = [];
  private waiters: { predicate: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      const frame = JSON.parse(raw.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.predicate(frame)) return true;
        waiter.resolve(frame);
        return false;
      });
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  static async open(baseUrl: string): Promise<TestSocket> {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + SOCKET_PATH);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new TestSocket(ws);
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first frame received so far matching `predicate`, or the next one to arrive. */
  waitFor(predicate: (frame: Frame) => boolean): Promise<Frame> {
    const seen = this.frames.find(predicate);
    return seen ? Promise.resolve(seen) : this.next(predicate);
  }

  /** The next frame (from now on) matching `predicate`. */
  next(predicate: (frame: Frame) => boolean): Promise<Frame> {
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }

  async settle() {
    const pong = this.next((frame) => frame.type === 'pong');
    this.send({ type: 'ping' });
    await pong;
  }

  of<T>(type: string): T[] {
    return this.frames.filter((frame) => frame.type === type).map((frame) => frame.data as T);
  }

  clear() {
    this.frames.length = 0;
  }

  close() {
    this.ws.close();
  }
}
