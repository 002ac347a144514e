import { CompanyPath, type CompanyStatusView, type CompanyView } from '@pipwise/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http';
import { STALE_REFERENCE } from './staleTimes';

export const companyKeys = {
  all: ['company'] as const,
  status: () => [...companyKeys.all, 'status'] as const,
  current: () => [...companyKeys.all, 'current'] as const,
  search: (name: string) => [...companyKeys.all, 'search', name] as const,
};

/**
 * The site's status (docs/api.md): read when the app starts; a closed site sends the browser away. Silent:
 * the app still works as the main site when the call fails.
 */
export const companyStatusQuery = queryOptions({
  queryKey: companyKeys.status(),
  queryFn: () => http.get<CompanyStatusView>(CompanyPath.status, undefined, { silent: true, initial: true }),
  staleTime: STALE_REFERENCE,
});

export function useCompanyStatusQuery() {
  return useQuery(companyStatusQuery);
}

/** The profile of the company the browser entered (its cookie), or of the main site. */
export const companyQuery = queryOptions({
  queryKey: companyKeys.current(),
  queryFn: () => http.get<CompanyView>(CompanyPath.company, undefined, { silent: true, initial: true }),
  staleTime: STALE_REFERENCE,
});

export function useCompanyQuery() {
  return useQuery(companyQuery);
}
