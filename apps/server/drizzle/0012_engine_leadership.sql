CREATE TABLE "engine_leadership" (
	"id" smallint PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL,
	"holder" text,
	"since" timestamp with time zone
);
--> statement-breakpoint
INSERT INTO "engine_leadership" ("id", "epoch") VALUES (1, 0);
