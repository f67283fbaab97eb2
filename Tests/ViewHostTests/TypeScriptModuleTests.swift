import Foundation
import Testing

@testable import ViewHost

/// `viewhost typescript`: the TypeScript types written from an OpenAPI document's schemas.
@Suite struct TypeScriptModuleTests {
    /// A document with one feature, `notes`, whose schemas use every shape the writer knows.
    static let document = #"""
        {"components": {"schemas": {
          "Action": {"type": "object", "required": ["method", "href", "body"], "properties": {
            "method": {"const": "POST"}, "href": {"type": "string"},
            "body": {"type": "object", "required": ["type"], "additionalProperties": {"type": "string"}}}},
          "Snapshot": {"type": "object", "required": ["feature", "version"], "properties": {
            "feature": {"type": "string"}, "version": {"type": "integer"}}},
          "EventID": {"type": ["string", "null"], "description": "A client event id."},
          "NotesSnapshot": {"description": "The notes.", "allOf": [{"$ref": "#/components/schemas/Snapshot"}, {
            "type": "object", "required": ["items", "actions"], "properties": {
              "actions": {"type": "object", "required": ["add"], "properties": {"add": {"$ref": "#/components/schemas/Action"}}},
              "items": {"type": "array", "items": {"type": ["string", "null"]}},
              "by-tag": {"type": "object", "additionalProperties": {"type": "integer"}},
              "mode": {"enum": ["list", "grid", null], "type": ["string", "null"]}}}]},
          "NotesAddEvent": {"type": "object", "additionalProperties": false, "required": ["type", "text"], "properties": {
            "type": {"const": "add"}, "id": {"$ref": "#/components/schemas/EventID"},
            "text": {"type": "string", "description": "At most 9 */ characters."}}},
          "NotesClearEvent": {"type": "object", "required": ["type"], "properties": {"type": {"const": "clear"}}},
          "NotesEvent": {"description": "One notes event.",
            "oneOf": [{"$ref": "#/components/schemas/NotesAddEvent"}, {"$ref": "#/components/schemas/NotesClearEvent"}],
            "discriminator": {"propertyName": "type", "mapping": {
              "add": "#/components/schemas/NotesAddEvent", "clear": "#/components/schemas/NotesClearEvent"}}}
        }}}
        """#

    @Test func aFeaturesSchemasBecomeItsTypes() {
        let source = TypeScriptModule.source(document: Self.document, features: ["notes"])
        let expected = """
            /** The notes. */
            export interface NotesSnapshot {
              actions: {
                add: Action;
              };
              "by-tag"?: {
                [key: string]: number;
              };
              feature: "notes";
              items: (string | null)[];
              mode?: "list" | "grid" | null;
              version: number;
            }

            /** The `add` intent of notes. */
            export interface NotesAddIntent {
              /** A client event id. */
              id?: string | null;
              /** At most 9 *\\/ characters. */
              text: string;
              type: "add";
            }

            /** The `clear` intent of notes. */
            export interface NotesClearIntent {
              type: "clear";
            }

            /** One notes event. */
            export type NotesIntent =
              | NotesAddIntent
              | NotesClearIntent;

            /** The app's features: each one's snapshot and intents. */
            export interface Features {
              notes: { snapshot: NotesSnapshot; intent: NotesIntent };
            }

            /** The names of the app's features. */
            export type FeatureName = keyof Features;

            """
        #expect(source.hasSuffix(expected), "\(source)")
        let action = "export interface Action {\n  body: {\n    type: string;\n    [key: string]: string;\n  };"
        #expect(source.contains(action))
    }

    @Test func anAppWithoutFeaturesHasAnEmptyMap() {
        let source = TypeScriptModule.source(document: Self.document, features: [])
        #expect(source.contains("export interface Features {\n}\n"))
        #expect(!source.contains("Snapshot {"), "no feature's types")
    }

    /// A string literal type escapes what JSON escapes (quote, backslash, control characters, short forms for the
    /// three usual ones) and the line and paragraph separators; anything else stays as it is.
    @Test func aLiteralStringIsEscapedAsJSONAndForScripts() {
        let text = "a\"b\\c\nd\re\tf\u{1}\u{1F}g\u{2028}h\u{2029}é✓"
        #expect(
            TypeScriptModule.Writer.literal(text)
                == #""a\"b\\c\nd\re\tf\u0001\u001fg\u2028h\u2029é✓""#)
        #expect(TypeScriptModule.Writer.key("my-key") == #""my-key""#)
        #expect(TypeScriptModule.Writer.key("plain_$1") == "plain_$1")
    }
}
