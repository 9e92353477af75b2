import { expect, inject } from 'vitest';

/** A channel made through the API as the channel pages do (`POST /api/Channel/CreateWebChannel`); returns its CID. */
export async function createWebChannel(
  token: string,
  name: string,
  uids: readonly number[],
  memberPriority: number,
): Promise<number> {
  const response = await fetch(new URL('/api/Channel/CreateWebChannel', inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: new URLSearchParams({
      cname: name,
      ctypeid: '106',
      uids: uids.join(','),
      memberPriority: String(memberPriority),
    }),
  });
  const answer = (await response.json()) as {
    BaseResult: { Code: number; Message: string };
    BaseData?: { CID: number };
  };
  expect(answer.BaseResult.Code, answer.BaseResult.Message).toBe(8888);
  return answer.BaseData!.CID;
}

/** Deletes channels the tests made (`DELETE /api/THChannel/DeleteChannel?cid=`). */
export async function deleteChannels(token: string, cids: readonly number[]): Promise<void> {
  for (const cid of cids) {
    await fetch(new URL(`/api/THChannel/DeleteChannel?cid=${cid}`, inject('baseUrl')), {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
  }
}
