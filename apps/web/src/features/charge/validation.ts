import { dec, schemaErrors, type CoinChannelView, type WireChannelView, type FormSchema } from '@pipwise/domain';

type Translate = (keys: string | string[], values?: Record<string, string>) => string;
type Limits = Pick<CoinChannelView | WireChannelView, 'min_amount' | 'max_amount'>;

/** The request's field names as the deposit forms call them. */
const FIELDS = { number: 'amount', proofImg: 'proof', charge_id: 'channel', wire_id: 'channel' };

/**
 * A deposit form's problems, keyed by field: the domain schema the server parses with, then the chosen
 * channel's limits, which the server checks too. An empty amount says "required" (docs/api.md), not "invalid".
 */
export function depositErrors(
  schema: FormSchema,
  request: { number: string },
  channel: Limits,
  t: Translate,
  formatAmount: (value: number) => string,
): Record<string, string> {
  const found = schemaErrors(schema, request, t, { namespace: 'charge', fields: FIELDS });
  if (request.number.trim() === '') found.amount = t('charge.amount_required');
  else if (!found.amount) {
    const amount = dec(request.number.trim());
    if (amount.lt(channel.min_amount)) found.amount = t('charge.amount_below_min', { min: formatAmount(channel.min_amount) });
    else if (amount.gt(channel.max_amount))
      found.amount = t('charge.amount_above_max', { max: formatAmount(channel.max_amount) });
  }
  return found;
}
