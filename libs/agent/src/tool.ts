export type { AgentTool, AgentToolResult, AnyAgentTool } from '@pi/agent-contract';
