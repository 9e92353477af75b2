import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';

/** The console's login envelope (DESIGN.md section 4), made with node:crypto. */
export async function login(url: string, username: string, password: string, code: string): Promise<string> {
  const keyResponse = (await (await fetch(`${url}/api/UAuth/PublicKey`)).json()) as {
    BaseData: { keyId: string; spki: string };
  };
  const { keyId, spki } = keyResponse.BaseData;
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const plain = JSON.stringify({ username, password, code, time: `${Date.now()}_admin` });
  const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const appSecret = publicEncrypt(
    {
      key: createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' }),
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
    },
    aesKey,
  );
  const body = new URLSearchParams({
    appId: 'bench',
    companyId: code,
    keyId,
    appSecret: appSecret.toString('base64'),
    data: sealed.toString('base64'),
  });
  const response = await fetch(`${url}/api/UAuth/Login`, { method: 'POST', body });
  const result = (await response.json()) as { Code: number; access_token?: string; Message: string };
  if (result.Code !== 8888 || !result.access_token) throw new Error(`login failed: ${result.Code} ${result.Message}`);
  return result.access_token;
}
