/** Tool schemas made Gemini-safe: parametersJsonSchema, no $schema, anyOf-with-null collapsed, a reason argument. */
import { describe, expect, it } from "vitest";
import { geminiSafeSchema, toFunctionDeclarations } from "../../src/planner/gemini-schema.ts";
import { JGRANTS_TOOLS } from "./gemini-fixtures.ts";

describe("gemini schema", () => {
  it("collapses anyOf with null and drops null defaults, titles and $schema", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      title: "Args",
      properties: {
        area: {
          anyOf: [{ type: "string" }, { type: "null" }],
          default: null,
          description: "地域",
          title: "Area",
        },
        n: { type: ["integer", "null"] },
        either: { anyOf: [{ type: "string" }, { type: "number" }] },
        list: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } },
      },
    };
    expect(geminiSafeSchema(schema)).toEqual({
      type: "object",
      properties: {
        area: { type: "string", description: "地域" },
        n: { type: "integer" },
        either: { anyOf: [{ type: "string" }, { type: "number" }] },
        list: { type: "array", items: { type: "string" } },
      },
    });
  });

  it("offers the enum branch of a one-or-several-joined filter", () => {
    const schema = {
      anyOf: [
        { type: "string", enum: ["製造業", "建設業"] },
        { type: "string", pattern: "^(?:製造業|建設業)(?: / (?:製造業|建設業))+$" },
        { type: "null" },
      ],
      default: null,
      description: "業種。複数は / で区切る。",
    };
    expect(geminiSafeSchema(schema)).toEqual({
      type: "string",
      enum: ["製造業", "建設業"],
      description: "業種。複数は / で区切る。",
    });
  });

  it("keeps the sentences after a short first one while they fit, so hints like「 / 全国」survive", () => {
    const area = geminiSafeSchema({
      type: "string",
      description:
        "補助対象地域。都道府県で絞り込むと全国対象の補助金は含まれないため、含めたいときは「 / 全国」を足します。複数の値は「 / 」（半角スペース＋半角スラッシュ＋半角スペース）で区切って1つの文字列にします。",
    }) as { description: string };
    expect(area.description).toBe(
      "補助対象地域。都道府県で絞り込むと全国対象の補助金は含まれないため、含めたいときは「 / 全国」を足します。",
    );
  });

  it("declares each tool by qualified name with a required reason and clipped descriptions", () => {
    const declarations = toFunctionDeclarations(JGRANTS_TOOLS);
    expect(declarations.map((d) => d.name)).toEqual([
      "jgrants__search_subsidies",
      "jgrants__get_subsidy_detail",
      "jgrants__get_subsidy_overview",
    ]);
    const search = declarations[0]!;
    expect(search.description.length).toBeLessThanOrEqual(80);
    expect(search.parametersJsonSchema.required).toEqual(["keyword", "reason"]);
    expect(search.parametersJsonSchema.properties).toHaveProperty("reason.type", "string");
    expect(search.parametersJsonSchema.properties).toHaveProperty("sort.enum", [
      "created_date",
      "acceptance_start_datetime",
      "acceptance_end_datetime",
    ]);
    const text = JSON.stringify(declarations);
    expect(text).not.toMatch(/\$schema|anyOf|"null"/);
  });
});
