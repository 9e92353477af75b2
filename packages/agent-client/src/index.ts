export {
  AGENT_REPLY_TIMEOUT_MS,
  AgentClientErrors,
  AgentCommandError,
  AgentReplies,
  type AgentRepliesOptions,
  type AgentReply,
} from './agentReplies.js';
export { AgentClient, type AgentClientEvents, type AgentClientOptions } from './agentClient.js';
export { frameBytes, sortAgentMessage, type AgentMessage, type SortedMessage } from './agentMessages.js';
export { ExponentialBackoff, type BackoffOptions, type ReconnectSchedule } from './backoff.js';
export { CLOSE_ABNORMAL, SOCKET_OPEN, type AgentSocketLike } from './socketLike.js';
export { runtimeTimers, type AgentTimers } from './timers.js';
