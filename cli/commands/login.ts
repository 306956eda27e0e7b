import { deviceLogin } from "../../client/src/index";
import { forgetLogin, storeLogin } from "../config";
import type { Command } from "../context";
import { EXIT } from "../exit-codes";

export const login: Command = {
  usage: "login [--base-url URL] [--name NAME]",
  summary: "sign in through the console (device approval) and store a new API key",
  options: { name: { type: "string" } },
  async run(ctx, { values }) {
    const result = await deviceLogin({
      baseUrl: ctx.baseUrl,
      clientName: (values.name as string | undefined) ?? "collect CLI",
      platform: `${process.platform} ${process.arch}, Node ${process.versions.node}`,
      signal: ctx.signal,
      onCode: (code) => {
        // With --json, stdout carries only the result; the person still reads the code on stderr.
        const prompt = ctx.json ? ctx.err : ctx.out;
        prompt.write(`Open ${code.verificationUriComplete}\n`);
        prompt.write(`and approve the code ${code.userCode} (at ${code.verificationUri}; valid for ${Math.round(code.expiresInSeconds / 60)} min)\n`);
        prompt.write("Waiting for approval...\n");
      },
    });
    const file = await storeLogin({ baseUrl: ctx.baseUrl, apiKey: result.apiKey }, ctx.env);
    ctx.out.write(ctx.json ? `${JSON.stringify({ baseUrl: ctx.baseUrl, workspaceId: result.workspaceId, apiKeyId: result.apiKeyId, configFile: file })}\n` : `Logged in to ${ctx.baseUrl} (workspace ${result.workspaceId}); key stored in ${file}\n`);
    return EXIT.OK;
  },
};

export const logout: Command = {
  usage: "logout",
  summary: "forget the stored key (revoke it in the console's API keys page to end it)",
  async run(ctx) {
    const removed = await forgetLogin(ctx.env);
    ctx.out.write(removed ? "Logged out: the stored key was removed from this machine.\n" : "Not logged in.\n");
    return EXIT.OK;
  },
};
