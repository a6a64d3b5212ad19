/**
 * A workspace's intelligence settings (docs/intelligence.md): the ideal
 * customer that gives fit points, and the page-kind patterns. Read with
 * every default filled in; written section by section (a section given
 * replaces the stored one), checked by their JSON Schema. The CLI
 * (`leadlight workspace settings`) and the dashboard call this.
 */
import { IntelligenceSettingsSchema, resolveSettings, settingsView, type IntelligenceSettingsInput } from '../../intelligence/settings.js';
import type { WorkspaceStore } from '../../repositories/index.js';
import type { JsonObject } from '../../schemas/json.js';
import { now } from '../../schemas/instants.js';
import { createAjv, describeErrors, type ValidateFunction } from '../../schemas/validator.js';
import { invalidFields } from '../errors.js';

let validate: ValidateFunction | undefined;

export class IntelligenceSettingsService {
  constructor(private readonly store: WorkspaceStore) {}

  /** The settings in effect, defaults included. */
  async get(): Promise<IntelligenceSettingsInput> {
    return settingsView(resolveSettings((await this.store.repos.settings.intelligence()) as IntelligenceSettingsInput | null));
  }

  /** Replaces the sections `input` holds; answers the settings in effect. */
  async set(input: unknown): Promise<IntelligenceSettingsInput> {
    validate ??= createAjv(false).compile(IntelligenceSettingsSchema);
    if (!validate(input)) throw invalidFields(describeErrors(validate.errors ?? []));
    await this.store.transaction(async (repos) => {
      const stored = (await repos.settings.intelligence()) ?? {};
      await repos.settings.setIntelligence({ ...stored, ...(input as JsonObject) }, now());
    });
    return this.get();
  }
}
