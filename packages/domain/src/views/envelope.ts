/** Every HTTP answer (docs/api.md): `code` 1 is success, any other is an error whose `msg` is localized. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
