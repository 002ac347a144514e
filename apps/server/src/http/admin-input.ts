import { invalid, notFound, positiveIntId } from '@pipwise/domain';
import { z } from 'zod';

/**
 * Request helpers of the back office's editable lists: ids in paths and "a change must change something"
 * (the fields' schemas are the domain's).
 */

/** The numeric id of a path such as /instruments/:id; anything else names nothing: "not found" under `messageKey`. */
export function pathId(params: unknown, messageKey: string): number {
  const parsed = z.object({ id: positiveIntId(messageKey) }).safeParse(params);
  if (!parsed.success) throw notFound(messageKey);
  return parsed.data.id;
}

/** The fields a partial update gives (undefined ones keep the stored value when spread over it). */
export const definedFields = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;

/** An update must name at least one field to change. */
export function requireSomeChange<T extends object>(changes: T): T {
  if (!Object.values(changes).some((value) => value !== undefined)) throw invalid('admin_nothing_to_change');
  return changes;
}
