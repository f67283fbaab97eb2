/// `GET /openapi.json`: the OpenAPI 3.1 description of every route (API.md says never to let the two drift; the
/// `OpenAPIHTTPTests` checks that every operation here is routed).
enum OpenAPIDocument {
    static let json = #"""
        {
         "openapi": "3.1.0",
         "info": {
          "title": "ViewHost",
          "version": "0.1.0",
          "description": "Per-session MVVM view models served as immutable, versioned JSON snapshots; events are posted into the features' event routers. Every error is RFC 9457 application/problem+json."
         },
         "servers": [
          {
           "url": "/"
          }
         ],
         "paths": {
          "/healthz": {
           "get": {
            "summary": "Liveness",
            "responses": {
             "200": {
              "description": "The process runs.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/readyz": {
           "get": {
            "summary": "Readiness",
            "responses": {
             "200": {
              "description": "Listening.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          },
          "/metrics": {
           "get": {
            "summary": "Prometheus metrics",
            "responses": {
             "200": {
              "description": "Text exposition 0.0.4.",
              "content": {
               "text/plain": {
                "schema": {
                 "type": "string"
                }
               }
              }
             }
            }
           }
          },
          "/openapi.json": {
           "get": {
            "summary": "This document",
            "responses": {
             "200": {
              "description": "OpenAPI 3.1.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              }
             }
            }
           }
          },
          "/": {
           "get": {
            "summary": "The web front-end",
            "responses": {
             "200": {
              "description": "HTML.",
              "content": {
               "text/html": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified."
             }
            }
           }
          },
          "/v1/sessions": {
           "post": {
            "summary": "Create a session",
            "requestBody": {
             "required": false,
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/SessionOptions"
               }
              }
             }
            },
            "responses": {
             "201": {
              "description": "Created; the token is also set as the viewhost_session cookie.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/SessionCreated"
                }
               }
              },
              "headers": {
               "Location": {
                "schema": {
                 "type": "string"
                }
               },
               "Set-Cookie": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "415": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          },
          "/v1/sessions/{id}": {
           "parameters": [
            {
             "name": "id",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "pattern": "^[0-9a-z]{26}$"
             },
             "description": "The session id."
            }
           ],
           "get": {
            "summary": "Session info",
            "security": [
             {
              "bearer": []
             },
             {
              "cookie": []
             }
            ],
            "responses": {
             "200": {
              "description": "The session.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/SessionInfo"
                }
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             }
            }
           },
           "delete": {
            "summary": "Delete a session",
            "security": [
             {
              "bearer": []
             },
             {
              "cookie": []
             }
            ],
            "responses": {
             "204": {
              "description": "Deleted; later requests get 404."
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          },
          "/v1/sessions/{id}/stream": {
           "parameters": [
            {
             "name": "id",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "pattern": "^[0-9a-z]{26}$"
             },
             "description": "The session id."
            },
            {
             "name": "features",
             "in": "query",
             "schema": {
              "type": "string"
             },
             "description": "Comma-separated features to stream."
            },
            {
             "name": "Last-Event-ID",
             "in": "header",
             "schema": {
              "type": "string"
             },
             "description": "Resume: only features changed since this sequence number."
            }
           ],
           "get": {
            "summary": "Server-sent events",
            "security": [
             {
              "bearer": []
             },
             {
              "cookie": []
             }
            ],
            "responses": {
             "200": {
              "description": "text/event-stream: id (session sequence), event (feature), data (snapshot).",
              "content": {
               "text/event-stream": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "429": {
              "$ref": "#/components/responses/Problem"
             },
             "503": {
              "$ref": "#/components/responses/Problem"
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          },
          "/v1/sessions/{id}/log": {
           "parameters": [
            {
             "name": "id",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "pattern": "^[0-9a-z]{26}$"
             },
             "description": "The session id."
            },
            {
             "name": "since",
             "in": "query",
             "schema": {
              "type": "integer",
              "minimum": 0
             }
            }
           ],
           "get": {
            "summary": "The data-flow log",
            "security": [
             {
              "bearer": []
             },
             {
              "cookie": []
             }
            ],
            "responses": {
             "200": {
              "description": "Applied events, oldest first.",
              "content": {
               "application/json": {
                "schema": {
                 "type": "array",
                 "items": {
                  "$ref": "#/components/schemas/LogEntry"
                 }
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          },
          "/v1/sessions/{id}/{feature}": {
           "parameters": [
            {
             "name": "id",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "pattern": "^[0-9a-z]{26}$"
             },
             "description": "The session id."
            },
            {
             "name": "feature",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "enum": [
               "chat",
               "weather",
               "login",
               "person"
              ]
             }
            },
            {
             "name": "wait",
             "in": "query",
             "schema": {
              "type": "number",
              "exclusiveMinimum": 0,
              "maximum": 60
             },
             "description": "Long poll (with If-None-Match)."
            },
            {
             "name": "If-None-Match",
             "in": "header",
             "schema": {
              "type": "string"
             }
            }
           ],
           "get": {
            "summary": "A feature's newest snapshot",
            "security": [
             {
              "bearer": []
             },
             {
              "cookie": []
             }
            ],
            "responses": {
             "200": {
              "description": "The snapshot.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Snapshot"
                }
               }
              },
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                },
                "description": "\"V\", the version."
               }
              }
             },
             "304": {
              "description": "Not modified (or the long poll ended).",
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                },
                "description": "\"V\", the version."
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          },
          "/v1/sessions/{id}/{feature}/events": {
           "parameters": [
            {
             "name": "id",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "pattern": "^[0-9a-z]{26}$"
             },
             "description": "The session id."
            },
            {
             "name": "feature",
             "in": "path",
             "required": true,
             "schema": {
              "type": "string",
              "enum": [
               "chat",
               "weather",
               "login",
               "person"
              ]
             }
            },
            {
             "name": "Idempotency-Key",
             "in": "header",
             "schema": {
              "type": "string",
              "maxLength": 255
             }
            }
           ],
           "post": {
            "summary": "Post events",
            "security": [
             {
              "bearer": []
             },
             {
              "cookie": []
             }
            ],
            "requestBody": {
             "required": true,
             "content": {
              "application/json": {
               "schema": {
                "oneOf": [
                 {
                  "oneOf": [
                   {
                    "$ref": "#/components/schemas/ChatEvent"
                   },
                   {
                    "$ref": "#/components/schemas/WeatherEvent"
                   },
                   {
                    "$ref": "#/components/schemas/LoginEvent"
                   },
                   {
                    "$ref": "#/components/schemas/PersonEvent"
                   }
                  ]
                 },
                 {
                  "type": "array",
                  "minItems": 1,
                  "maxItems": 100,
                  "items": {
                   "oneOf": [
                    {
                     "$ref": "#/components/schemas/ChatEvent"
                    },
                    {
                     "$ref": "#/components/schemas/WeatherEvent"
                    },
                    {
                     "$ref": "#/components/schemas/LoginEvent"
                    },
                    {
                     "$ref": "#/components/schemas/PersonEvent"
                    }
                   ]
                  }
                 }
                ]
               }
              }
             }
            },
            "responses": {
             "202": {
              "description": "Routed into the feature's event router.",
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/EventsAccepted"
                }
               }
              }
             },
             "400": {
              "$ref": "#/components/responses/Problem"
             },
             "413": {
              "$ref": "#/components/responses/Problem"
             },
             "415": {
              "$ref": "#/components/responses/Problem"
             },
             "422": {
              "$ref": "#/components/responses/Problem"
             },
             "401": {
              "$ref": "#/components/responses/Problem"
             },
             "404": {
              "$ref": "#/components/responses/Problem"
             },
             "410": {
              "$ref": "#/components/responses/Problem"
             }
            }
           }
          }
         },
         "components": {
          "securitySchemes": {
           "bearer": {
            "type": "http",
            "scheme": "bearer"
           },
           "cookie": {
            "type": "apiKey",
            "in": "cookie",
            "name": "viewhost_session"
           }
          },
          "responses": {
           "Problem": {
            "description": "RFC 9457 problem.",
            "content": {
             "application/problem+json": {
              "schema": {
               "$ref": "#/components/schemas/Problem"
              }
             }
            }
           }
          },
          "schemas": {
           "Problem": {
            "type": "object",
            "required": [
             "type",
             "title",
             "status"
            ],
            "properties": {
             "type": {
              "type": "string"
             },
             "title": {
              "type": "string"
             },
             "status": {
              "type": "integer"
             },
             "detail": {
              "type": "string"
             },
             "errors": {
              "type": "array",
              "items": {
               "type": "object",
               "properties": {
                "field": {
                 "type": "string"
                },
                "message": {
                 "type": "string"
                }
               }
              }
             },
             "allowed": {
              "type": "array",
              "items": {
               "type": "string"
              }
             }
            }
           },
           "SessionOptions": {
            "type": "object",
            "additionalProperties": false,
            "properties": {
             "features": {
              "type": "array",
              "minItems": 1,
              "items": {
               "type": "string",
               "enum": [
                "chat",
                "weather",
                "login",
                "person"
               ]
              }
             },
             "timeZone": {
              "type": "string",
              "examples": [
               "Europe/Tallinn"
              ]
             },
             "locale": {
              "type": "string",
              "examples": [
               "en_US",
               "zh-Hans"
              ]
             }
            }
           },
           "SessionCreated": {
            "type": "object",
            "required": [
             "id",
             "token",
             "expiresAt",
             "links"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "token": {
              "type": "string"
             },
             "expiresAt": {
              "type": "string",
              "format": "date-time"
             },
             "links": {
              "type": "object",
              "additionalProperties": {
               "type": "string"
              }
             }
            }
           },
           "SessionInfo": {
            "type": "object",
            "required": [
             "id",
             "createdAt",
             "expiresAt",
             "features"
            ],
            "properties": {
             "id": {
              "type": "string"
             },
             "createdAt": {
              "type": "string",
              "format": "date-time"
             },
             "expiresAt": {
              "type": "string",
              "format": "date-time"
             },
             "features": {
              "type": "object",
              "additionalProperties": {
               "type": "object",
               "properties": {
                "version": {
                 "type": "integer"
                }
               }
              }
             }
            }
           },
           "EventsAccepted": {
            "type": "object",
            "required": [
             "accepted",
             "version"
            ],
            "properties": {
             "accepted": {
              "type": "integer"
             },
             "version": {
              "type": "integer"
             }
            }
           },
           "LogEntry": {
            "type": "object",
            "required": [
             "seq",
             "at",
             "feature",
             "event",
             "source",
             "causedBy",
             "versionAfter"
            ],
            "properties": {
             "seq": {
              "type": "integer"
             },
             "at": {
              "type": "string",
              "format": "date-time"
             },
             "feature": {
              "type": "string"
             },
             "event": {
              "type": "string"
             },
             "summary": {
              "type": "string"
             },
             "source": {
              "type": "string",
              "enum": [
               "client",
               "timer",
               "simulator",
               "provider",
               "view"
              ]
             },
             "causedBy": {
              "type": [
               "integer",
               "null"
              ]
             },
             "versionAfter": {
              "type": "integer"
             }
            }
           },
           "Action": {
            "type": "object",
            "required": [
             "method",
             "href",
             "body"
            ],
            "properties": {
             "method": {
              "const": "POST"
             },
             "href": {
              "type": "string"
             },
             "body": {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": {
               "type": "string"
              }
             },
             "enabled": {
              "type": "boolean"
             },
             "prompt": {
              "type": "object",
              "properties": {
               "title": {
                "type": "string"
               },
               "submit": {
                "type": "string"
               }
              }
             }
            }
           },
           "Snapshot": {
            "type": "object",
            "required": [
             "feature",
             "version"
            ],
            "additionalProperties": true,
            "properties": {
             "feature": {
              "type": "string"
             },
             "version": {
              "type": "integer",
              "minimum": 1
             },
             "actions": {
              "type": "object",
              "additionalProperties": {
               "$ref": "#/components/schemas/Action"
              }
             }
            },
            "description": "The feature's whole, immutable view-model snapshot: chat (badge, navigation, chatList, createChat, conversations, notifications), weather (locationName, date, icon, summary, forecastSummary, status, provider, observedAt, error), login (username, passwordLength, usernameValid, passwordValid, loginEnabled, instruction, instructionKey, labels), person (nameText, birthdateText, salutation, firstName, lastName, birthdate). Equal versions are identical bytes."
           },
           "ChatEvent": {
            "oneOf": [
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "appear"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "addChat"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type",
               "contact"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "create"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "contact": {
                "type": "string",
                "maxLength": 1024
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type",
               "contact"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "openChat"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "contact": {
                "type": "string",
                "maxLength": 1024
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type",
               "text"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "send"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "text": {
                "type": "string",
                "maxLength": 4000
               },
               "contact": {
                "type": "string",
                "maxLength": 1024
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "userRead"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "contact": {
                "type": "string",
                "maxLength": 1024
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "back"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "appResignActive"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "appBecomeActive"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type",
               "contact"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "notificationTap"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "contact": {
                "type": "string",
                "maxLength": 1024
               }
              }
             }
            ]
           },
           "WeatherEvent": {
            "oneOf": [
             {
              "type": "object",
              "required": [
               "type",
               "location"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "changeLocation"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "location": {
                "type": "string",
                "maxLength": 200
               }
              }
             }
            ]
           },
           "LoginEvent": {
            "oneOf": [
             {
              "type": "object",
              "required": [
               "type",
               "value"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "setUsername"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "value": {
                "type": "string",
                "maxLength": 256
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type",
               "value"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "setPassword"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "value": {
                "type": "string",
                "maxLength": 256
               }
              }
             },
             {
              "type": "object",
              "required": [
               "type"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "login"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               }
              }
             }
            ]
           },
           "PersonEvent": {
            "oneOf": [
             {
              "type": "object",
              "required": [
               "type",
               "firstName",
               "lastName",
               "birthdate"
              ],
              "additionalProperties": false,
              "properties": {
               "type": {
                "const": "setPerson"
               },
               "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 255,
                "description": "Client event id: a repeat is acknowledged but not applied again."
               },
               "salutation": {
                "type": [
                 "string",
                 "null"
                ],
                "maxLength": 64
               },
               "firstName": {
                "type": "string",
                "maxLength": 256
               },
               "lastName": {
                "type": "string",
                "maxLength": 256
               },
               "birthdate": {
                "type": "string",
                "description": "ISO 8601 date (1970-01-01) or date-time (1970-01-01T00:00:00Z)."
               }
              }
             }
            ]
           }
          }
         }
        }
        """#
}
