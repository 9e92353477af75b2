import { useEffect, useState } from 'react';

/** Why this browser cannot talk (`insecure_context`, `no_webcodecs`), or null when it can. */
export function useTalkProblem(): string | null {
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('@intercom/browser-audio')
      .then(({ browserTalkProblem }) => browserTalkProblem())
      .then((found) => live && setProblem(found))
      .catch(() => live && setProblem('no_webcodecs'));
    return () => {
      live = false;
    };
  }, []);
  return problem;
}
