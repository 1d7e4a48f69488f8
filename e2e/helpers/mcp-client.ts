/**
 * `daebug mcp` as an agent starts it: the SDK's client over stdio, in a project folder. Specs compare what its tools
 * answer with what the CLI prints, so that an agent hears the same thing through either door.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const daebugBin = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'bin.js');

/** A connected client of `daebug mcp --dir <reportsDir>`, started in `cwd`; close it when done. */
export async function mcpClient(reportsDir: string, options: { cwd?: string; bin?: string } = {}): Promise<Client> {
  const client = new Client({ name: 'daebug-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [options.bin ?? daebugBin, 'mcp', '--dir', reportsDir], ...(options.cwd ? { cwd: options.cwd } : {}), stderr: 'pipe' }));
  return client;
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/** Calls a tool and returns its one text part. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  if (content.length !== 1 || content[0]!.type !== 'text') throw new Error(`${name} answered with ${content.length} parts: ${JSON.stringify(content)}`);
  return { text: content[0]!.text, isError: result.isError === true };
}

/** One tool call on a client of its own, started in `cwd` on `reportsDir` and closed after. */
export async function askTool(cwd: string, reportsDir: string, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const client = await mcpClient(reportsDir, { cwd });
  try {
    return await callTool(client, name, args);
  } finally {
    await client.close();
  }
}
