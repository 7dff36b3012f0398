import { describe, expect, it } from "vitest";
import { DEFAULT_RUN_SETTINGS, InvalidSettingError } from "entity-tools";
import { checkSetting, withSettings } from "../../../src/loop/settings/run-settings.js";

describe("RunSettings", () => {
  it("patches only the given values, each checked", () => {
    const next = withSettings(DEFAULT_RUN_SETTINGS, { maxIterations: 5, maxInjectedTools: undefined });
    expect(next).toEqual({ ...DEFAULT_RUN_SETTINGS, maxIterations: 5 });
    expect(DEFAULT_RUN_SETTINGS.maxIterations).toBe(20);
  });

  it("accepts the edges of each rule and refuses just past them", () => {
    expect(checkSetting("maxOutputRepairs", 0)).toBe(0);
    expect(checkSetting("toolTimeoutMs", 2 ** 31 - 1)).toBe(2 ** 31 - 1);
    expect(checkSetting("toolTimeoutMs", 0.5 + 1)).toBe(1.5);
    expect(() => checkSetting("maxIterations", 0)).toThrow(InvalidSettingError);
    expect(() => checkSetting("maxUnknownToolCalls", 0)).toThrow(
      "maxUnknownToolCalls must be a whole number of at least 1, got 0",
    );
    expect(() => checkSetting("toolTimeoutMs", 2 ** 31)).toThrow(InvalidSettingError);
    expect(() => checkSetting("maxResultChars", "10" as unknown as number)).toThrow('got "10"');
  });
});
