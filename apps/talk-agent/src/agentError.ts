/** A command's failure: the reply carries `code` (TalkAgentErrors, or a server code passed through). */
export class AgentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
