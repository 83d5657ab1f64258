// Ops Manager organization API keys, their project assignments and log collection jobs, through the public API of a self-hosted MongoDB Ops Manager (`/api/public/v1.0`) with digest authentication.
package opsmanager
