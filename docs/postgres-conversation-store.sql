-- The table of entity-tools' PostgresConversationStore (entity-tools/postgres), as the store creates it
-- on first use. Run it yourself when the store's database user may not create tables, and give the store
-- { createTable: false }. Another schema or table name: replace "public" and "entity_tools_conversations"
-- (and pass { schema, table }). Layout: docs/conversation-stores.md.
SELECT pg_advisory_xact_lock(hashtext('entity-tools:public.entity_tools_conversations'));
CREATE TABLE IF NOT EXISTS "public"."entity_tools_conversations" (
  conversation_id text PRIMARY KEY,
  version integer NOT NULL,
  snapshot text,
  busy_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS "entity_tools_conversations_updated_at" ON "public"."entity_tools_conversations" (updated_at);
