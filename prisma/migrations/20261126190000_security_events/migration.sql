-- CreateTable
CREATE TABLE "securityEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "device" TEXT,
    "sessionId" TEXT,
    "actorUserId" TEXT,
    "details" TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT "securityEvent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "securityEvent_userId_createdAt_id_idx" ON "securityEvent"("userId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "securityEvent_createdAt_idx" ON "securityEvent"("createdAt");

