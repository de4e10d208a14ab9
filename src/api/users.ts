import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User, UserCreateRequest, UserUpdateRequest } from '../../contract/auth';
import type { UsersListQuery } from '../../contract/user-list';
import { userRoutes } from '../../contract/routes/users';
import { call } from './endpoint';

export const usersQueryKey = ['users'] as const;

/** One page of the accounts, searched and sorted on the server; a save or a toggle reads it again (its key is under usersQueryKey). */
export function useUsersPage(query: UsersListQuery) {
  return useQuery({
    queryKey: [...usersQueryKey, 'page', query],
    queryFn: async () => call(userRoutes.list, { query }),
    placeholderData: keepPreviousData,
  });
}

export async function createUser(body: UserCreateRequest): Promise<User> {
  return (await call(userRoutes.create, { body })).data;
}

export async function updateUser({ id, body }: { id: number; body: UserUpdateRequest }): Promise<User> {
  return (await call(userRoutes.update, { params: { id }, body })).data;
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
