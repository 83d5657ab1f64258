/**
 * Log collection jobs as the public record shows them: the 201 of a create, and job records as the
 * list and get-one endpoints return them (the provider does not read those yet: kept for the task that
 * will). Every value is the source's; the JSON is written out here.
 */
import { JSON_HEADERS, type PublishedAnswer } from "./types";

const GO_LOGS_TEST =
  "mongodb/go-client-mongodb-ops-manager@343f164338a5e0aa34a896746431983c74e36e6a, opsmngr/logs_test.go";

/** The project the Go client's tests use (`projectID` in opsmngr/agents_api_keys_test.go). */
export const GO_GROUP_ID = "5e66185d917b220fbd8bb4d1";

/** The answer to `POST /groups/{GROUP-ID}/logCollectionJobs`: the new job's id and nothing else. */
export const goCreateAnswer: PublishedAnswer = {
  source: `${GO_LOGS_TEST}, TestLogs_Create`,
  kind: "published",
  note: "The Go test's mux answers with Go's default status, 200; the spec says 201 Created, served here.",
  status: 201,
  headers: JSON_HEADERS,
  body: `{
  "id": "5c81086e014b76a3d85e1113"
}`,
};

const firstJob = `{
      "childJobs": [
        {
          "automationAgentId": "5c810cc4ff7a256345ff97bf",
          "errorMessage": "null",
          "finishDate": "2019-03-07T12:21:30Z",
          "hostName": "server1.example.com",
          "logCollectionType": "AUTOMATION_AGENT",
          "path": "server1.example.com/automation_agent",
          "startDate": "2019-03-07T12:21:24Z",
          "status": "SUCCESS",
          "uncompressedDiskSpaceBytes": 14686
        }
      ],
      "creationDate": "2019-03-07T12:21:24Z",
      "downloadUrl": "https://127.0.0.1:8080/api/public/v1.0/groups/5c8100bcf2a30b12ff88258f/logCollectionJobs?verbose=true&pageNum=1&itemsPerPage=100",
      "expirationDate": "2019-04-06T12:21:24Z",
      "groupId": "5e66185d917b220fbd8bb4d1",
      "id": "5c810cc4ff7a256345ff97b7",
      "logTypes": ["AUTOMATION_AGENT", "MONGODB"],
      "redacted": true,
      "resourceName": "myReplicaSet",
      "resourceType": "replicaset",
      "rootResourceName": "myReplicaSet",
      "rootResourceType": "replicaset",
      "sizeRequestedPerFileBytes": 1000,
      "status": "SUCCESS",
      "uncompressedSizeTotalBytes": 63326,
      "userId": "5c80f75fcf09a246878f67a4"
    }`;

/**
 * `GET /groups/{GROUP-ID}/logCollectionJobs`: two job records, one finished and one in progress,
 * `resourceType` in lower case, the database log named `MONGODB`, `childJobs` included.
 */
export const goJobListPage: PublishedAnswer = {
  source: `${GO_LOGS_TEST}, TestLogs_List`,
  kind: "published",
  note: "groupId is the test's projectID substituted (%[1]s); the downloadUrl keeps the older project id it was written with.",
  status: 200,
  headers: JSON_HEADERS,
  body: `{
  "results": [
    ${firstJob},
    {
      "childJobs": [
        {
          "automationAgentId": "5c81086e014b76a3d85e1117",
          "errorMessage": "null",
          "finishDate": "2019-03-07T12:02:57Z",
          "hostName": "server1.example.com:27027",
          "logCollectionType": "MONGODB",
          "path": "server1.example.com/27027/mongodb",
          "startDate": "2019-03-07T12:02:54Z",
          "status": "SUCCESS",
          "uncompressedDiskSpaceBytes": 9292
        }
      ],
      "creationDate": "2019-03-07T12:02:54Z",
      "downloadUrl": "https://127.0.0.1:8080/api/public/v1.0/groups/5c8100bcf2a30b12ff88258f/logCollectionJobs?verbose=true&pageNum=1&itemsPerPage=100",
      "expirationDate": "2019-05-06T12:02:54Z",
      "groupId": "5e66185d917b220fbd8bb4d1",
      "id": "5c81086e014b76a3d85e1113",
      "logTypes": ["MONGODB", "FTDC", "AUTOMATION_AGENT"],
      "redacted": true,
      "resourceName": "myReplicaSet",
      "resourceType": "replicaset",
      "rootResourceName": "myReplicaSet",
      "rootResourceType": "replicaset",
      "sizeRequestedPerFileBytes": 1000,
      "status": "IN_PROGRESS",
      "uncompressedSizeTotalBytes": 44518,
      "userId": "5c80f75fcf09a246878f67a4"
    }
  ],
  "totalCount": 2
}`,
};

/** `GET /groups/{GROUP-ID}/logCollectionJobs/{JOB-ID}?verbose=true`: one job record with its `childJobs`. */
export const goJobRecord: PublishedAnswer = {
  source: `${GO_LOGS_TEST}, TestLogs_Get`,
  kind: "published",
  note:
    'The Go test ends the object with a second "id" equal to the id in its mock path, so that the ' +
    "decoded id matches the one it asked for; that test device is left out and the record's own id kept.",
  status: 200,
  headers: JSON_HEADERS,
  body: firstJob.replace(/\n {4}/g, "\n"),
};
