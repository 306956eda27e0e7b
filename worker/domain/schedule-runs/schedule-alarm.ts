import { DurableObject } from "cloudflare:workers";
import { invocationBindings } from "../pipeline/detached-delivery";
import { runDue } from "./run";

/**
 * One per schedule: an alarm at its next occurrence. D1 keeps the schedule and which occurrence is next, so the
 * alarm only says when to look: firing twice, late, or after a redeploy runs an occurrence at most once (run.ts).
 */
export class ScheduleAlarm extends DurableObject<Env> {
  async arm(scheduleId: string, at: number | null): Promise<void> {
    if (at === null) {
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.ctx.storage.put("scheduleId", scheduleId);
    await this.ctx.storage.setAlarm(at);
  }

  // A throw here has the runtime retry the alarm with backoff: an occurrence a failing D1 left unrun is run later.
  override async alarm(): Promise<void> {
    const scheduleId = await this.ctx.storage.get<string>("scheduleId");
    if (!scheduleId) return;
    const next = await runDue(invocationBindings(this.env), scheduleId, Date.now());
    await this.arm(scheduleId, next);
  }
}
