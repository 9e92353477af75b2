import { useQuery } from '@tanstack/react-query';
import { getObject } from './apiClient';

/**
 * One row by id (`GET /api/{resource}/Entitys/{id}`), read afresh whenever a form or a picker
 * asks for it; nothing is asked while `id` is undefined.
 */
export function useEntity<T>(resource: string, id: number | undefined) {
  return useQuery({
    enabled: id !== undefined,
    queryKey: [resource, 'Entitys', id],
    queryFn: ({ signal }) => getObject<T>(`/api/${resource}/Entitys/${id}`, { signal }),
    staleTime: 0,
  });
}
