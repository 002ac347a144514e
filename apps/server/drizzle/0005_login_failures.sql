CREATE TABLE "login_failures" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"failed_at" timestamp with time zone[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_failures_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_alert_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "login_failures_expires_idx" ON "login_failures" USING btree ("scope","expires_at");