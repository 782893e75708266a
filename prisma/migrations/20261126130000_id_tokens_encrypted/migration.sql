-- ID tokens are now stored encrypted, like access and refresh tokens (docs/decisions/031-id-token-sign-in.md).
-- Those stored in clear before cannot be encrypted here (the key derives from AUTH_SECRET), and nothing needs
-- them (an ID token lives an hour or less; a refresh brings a new one): they are removed. An encrypted value
-- is "iv.ciphertext.tag" with a 16-character iv, so its first dot is the 17th character; a JWT's is later.
UPDATE "account" SET "idToken" = NULL WHERE "idToken" IS NOT NULL AND instr("idToken", '.') <> 17;
