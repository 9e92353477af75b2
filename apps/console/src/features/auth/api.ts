import { normaliseLoginName, type LoginResult, type PublicKey } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getObject } from '../../shared/api/apiClient';
import { ApiError, ClientErrorKeys } from '../../shared/api/ApiError';
import { resetSessionState } from '../../shared/api/sessionState';
import { setTokens } from '../../shared/storage/tokenStore';
import { loginPayload, sealLogin } from './sealLogin';

/** The client id this console logs in as. */
export const APP_ID = 'console';

export interface LoginInput {
  username: string;
  password: string;
  companyCode: string;
}

const publicCall = { sessionDialog: false } as const;

/**
 * Logs in with the encrypted envelope (DESIGN.md section 4): fetch the key, seal, post the form.
 * The username and company code are trimmed; the password is sent as typed.
 */
export async function login(input: LoginInput): Promise<void> {
  const key = await getObject<PublicKey>('/api/UAuth/PublicKey', publicCall);
  const username = normaliseLoginName(input.username);
  const code = normaliseLoginName(input.companyCode);
  const sealed = await sealLogin(key, loginPayload(username, input.password, code));
  const answer = await apiRequest('POST', '/api/UAuth/Login', {
    ...publicCall,
    form: { appId: APP_ID, companyId: code, keyId: key.keyId, ...sealed },
  });
  const result = answer.raw as Partial<LoginResult>;
  const accessToken = result.access_token || result.Message;
  if (!accessToken) throw new ApiError({ kind: 'bad_response', key: ClientErrorKeys.badResponse });
  setTokens({ accessToken, refreshToken: result.refresh_token, expiresIn: result.expires_in });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => {
      // Whatever the previous account had cached must not show for this one.
      queryClient.clear();
      resetSessionState();
    },
  });
}

/** The ICP footer text of the login page (empty when none is configured). */
export function useIcp() {
  return useQuery({
    queryKey: ['UAuth', 'ICP'],
    queryFn: ({ signal }) =>
      getObject<{ ICP: string }>('/api/UAuth/ICP', { ...publicCall, connectionToast: false, signal }),
    staleTime: Infinity,
    meta: { errorToast: false },
  });
}
