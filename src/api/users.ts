import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User, UserCreateRequest, UserResponse, UsersListResponse, UserUpdateRequest } from '../../contract/auth';
import { api } from './client';

export const usersQueryKey = ['users'] as const;

export async function getUsers(): Promise<User[]> {
  const response = await api.get<UsersListResponse>('/api/auth/users');
  return response.data.users;
}

export const usersQueryOptions = () => queryOptions({ queryKey: usersQueryKey, queryFn: getUsers });

export function useUsers() {
  return useQuery(usersQueryOptions());
}

export async function createUser(body: UserCreateRequest): Promise<User> {
  const response = await api.post<UserResponse>('/api/auth/users', body);
  return response.data.data;
}

export async function updateUser({ id, body }: { id: number; body: UserUpdateRequest }): Promise<User> {
  const response = await api.put<UserResponse>(`/api/auth/users/${id}`, body);
  return response.data.data;
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
