import { forbidden, invalid } from '@pipwise/domain';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** Who made an operator change, as the records and the audit trail name them. */
export interface Operator {
  /** `operator:<name>`: the actor written on every state change. */
  actor: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Operator names are short identifiers: they end up in records users and auditors read. */
const OPERATOR_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

/**
 * The operator API's guard until the back office has operator accounts: header `x-operator-token`
 * must equal OPERATOR_TOKEN (compared in constant time over digests, so length leaks nothing) and
 * `x-operator-name` names who acts. Without OPERATOR_TOKEN every operator call is refused.
 */
export function requireOperator(request: FastifyRequest, config: Config): Operator {
  const header = request.headers['x-operator-token'];
  const token = Array.isArray(header) ? header[0] : header;
  if (!config.operatorToken || !token || !timingSafeEqual(digest(token), digest(config.operatorToken))) {
    throw forbidden('operator_only');
  }
  const nameHeader = request.headers['x-operator-name'];
  const name = (Array.isArray(nameHeader) ? nameHeader[0] : nameHeader) ?? '';
  if (!OPERATOR_NAME.test(name)) throw invalid('operator_name_invalid');
  return { actor: `operator:${name}` };
}
