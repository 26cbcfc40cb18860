/**
 * What the alert banner remembers between one look at the figures and the next: since when each
 * rule has been tripped, and whether someone acknowledged it. An acknowledged rule stays quiet
 * until it clears; when it trips again it is new. Acknowledgements survive a reload of the tab
 * (session storage) for as long as their rule stays tripped.
 */
import type { AlertCondition, AlertID, AlertLevel } from './evaluate-alerts.js';

export interface TrackedAlert extends AlertCondition {
  /** When the rule tripped (epoch ms), as this tab saw it. */
  since: number;
  acknowledged: boolean;
}

/** A rule that just tripped, or got worse: what sound and notifications announce. */
export interface AlertNews {
  alert: TrackedAlert;
  kind: 'tripped' | 'escalated';
}

const ACK_KEY = 'callboard.alerts.acknowledged';

const readAcknowledged = (): Set<AlertID> => {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(ACK_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? (parsed.filter((id) => typeof id === 'string') as AlertID[]) : []);
  } catch {
    return new Set();
  }
};

const rank: Record<AlertLevel, number> = { warning: 1, critical: 2 };

export class AlertTracker {
  private tracked = new Map<AlertID, TrackedAlert>();
  private acknowledged = readAcknowledged();
  private listeners = new Set<() => void>();
  private current: TrackedAlert[] = [];

  /**
   * Takes the rules tripped now; returns what is news (tripped, or escalated and not acknowledged).
   * `unknown` names the rules whose figures are not known yet (still loading): not tripped, but not
   * clear either, so they keep their acknowledgement (a reloaded tab reads its figures a moment later).
   */
  update(conditions: readonly AlertCondition[], now: number, unknown: readonly AlertID[] = []): AlertNews[] {
    const news: AlertNews[] = [];
    const next = new Map<AlertID, TrackedAlert>();
    for (const condition of conditions) {
      const was = this.tracked.get(condition.id);
      const acknowledged = this.acknowledged.has(condition.id);
      const alert: TrackedAlert = { ...condition, since: was?.since ?? now, acknowledged };
      next.set(condition.id, alert);
      if (acknowledged) continue;
      if (!was) news.push({ alert, kind: 'tripped' });
      else if (rank[condition.level] > rank[was.level]) news.push({ alert, kind: 'escalated' });
    }
    // A rule that cleared forgets its acknowledgement: next time it trips, it is news.
    for (const id of [...this.acknowledged]) if (!next.has(id) && !unknown.includes(id)) this.acknowledged.delete(id);
    const changed = !sameAlerts([...next.values()], this.current);
    this.tracked = next;
    this.saveAcknowledged();
    if (changed) {
      this.current = [...next.values()];
      this.emit();
    }
    return news;
  }

  acknowledge(id: AlertID): void {
    const alert = this.tracked.get(id);
    if (!alert) return;
    this.acknowledged.add(id);
    this.tracked.set(id, { ...alert, acknowledged: true });
    this.current = [...this.tracked.values()];
    this.saveAcknowledged();
    this.emit();
  }

  getAlerts = (): TrackedAlert[] => this.current;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private saveAcknowledged(): void {
    try {
      sessionStorage.setItem(ACK_KEY, JSON.stringify([...this.acknowledged]));
    } catch {
      // Storage may be off (a locked-down kiosk): acknowledgements then last as long as the page.
    }
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

const sameAlerts = (a: readonly TrackedAlert[], b: readonly TrackedAlert[]): boolean =>
  a.length === b.length &&
  a.every((alert, i) => {
    const other = b[i];
    return other !== undefined && alert.id === other.id && alert.level === other.level && alert.title === other.title && alert.rule === other.rule && alert.since === other.since && alert.acknowledged === other.acknowledged;
  });
