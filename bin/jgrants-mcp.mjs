#!/usr/bin/env node
// Launcher for the jGrants MCP server: registers tsx so the TypeScript sources run without a build step.
import { register } from "tsx/esm/api";

register();
await import(new URL("../src/mcp-servers/jgrants/cli.ts", import.meta.url).href);
