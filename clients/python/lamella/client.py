"""A small client for the Lamella API: access-key authentication, retries on 429/503 (Retry-After), and the
helpers of a batch analysis: upload, analyse, wait, results, export, report. Standard library only."""
import json
import mimetypes
import os
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from .models import Image, Job, JobResult

DONE = ("FINISHED", "CACHED", "FAILED")


class ApiError(Exception):
    """A failed call: HTTP status, the API's stable `code` and its human message."""

    def __init__(self, status: int, code: str, message: str, details: Optional[list] = None):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.details = status, code, message, details or []


class Client:
    """`Client("https://lamella.example", key="lam_…")`: every call sends `Authorization: Bearer <key>`."""

    def __init__(self, base_url: str, key: str, retries: int = 5, timeout: float = 120.0, max_wait: float = 60.0):
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.retries = retries
        self.timeout = timeout
        self.max_wait = max_wait

    # -- transport ---------------------------------------------------------------------------------------------
    def request(self, method: str, path: str, query: Optional[Dict[str, Any]] = None, json_body: Any = None,
                body: Optional[bytes] = None, content_type: Optional[str] = None) -> Union[Any, bytes]:
        """One call; 429 and 503 are retried after Retry-After seconds (or a growing pause), up to `retries` times."""
        url = self.base_url + "/api" + path
        if query:
            url += "?" + urllib.parse.urlencode(query, doseq=True)
        headers = {"Authorization": f"Bearer {self.key}", "Accept": "application/json, */*"}
        if json_body is not None:
            body, content_type = json.dumps(json_body).encode("utf-8"), "application/json"
        if content_type:
            headers["Content-Type"] = content_type
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(url, data=body, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as res:
                    data = res.read()
                    if "application/json" in (res.headers.get("Content-Type") or ""):
                        return json.loads(data.decode("utf-8")) if data else None
                    return data
            except urllib.error.HTTPError as e:
                data = e.read()
                if e.code in (429, 503) and attempt < self.retries:
                    retry_after = e.headers.get("Retry-After")
                    pause = float(retry_after) if retry_after and retry_after.isdigit() else min(2 ** attempt, 30)
                    time.sleep(min(pause, self.max_wait))
                    continue
                try:
                    err = json.loads(data.decode("utf-8"))
                except ValueError:
                    err = {"code": "HTTP_ERROR", "message": data.decode("utf-8", "replace")}
                raise ApiError(e.code, err.get("code", "HTTP_ERROR"), err.get("message", ""), err.get("details")) from None
        raise AssertionError("unreachable")

    # -- helpers ---------------------------------------------------------------------------------------------------
    def upload(self, paths: Sequence[str], pixel_size_um: Optional[float] = None) -> List[Image]:
        """Uploads image files (PNG, JPEG, TIFF) in one multipart request; `pixel_size_um` calibrates them all."""
        boundary = uuid.uuid4().hex
        parts: List[bytes] = []
        if pixel_size_um is not None:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="pixelSizeUm"\r\n\r\n{pixel_size_um}\r\n'.encode())
        for path in paths:
            name = os.path.basename(path)
            kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
            with open(path, "rb") as f:
                data = f.read()
            head = f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\nContent-Type: {kind}\r\n\r\n'
            parts.append(head.encode("utf-8") + data + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        answer = self.request("POST", "/images", body=b"".join(parts), content_type=f"multipart/form-data; boundary={boundary}")
        return [Image.from_json(i) for i in answer]

    def model_id(self, model: str) -> str:
        """The id of a model the caller may run, by id, name or display name (e.g. "porosity", "grain-size")."""
        for m in self.request("GET", "/settings/available-models"):
            names = {m.get("id"), m.get("name"), m.get("displayName"), (m.get("name") or "").replace("_", "-")}
            if model in names or model.lower() in {str(n).lower() for n in names if n}:
                return m["id"]
        raise ApiError(404, "MODEL_NOT_FOUND", f"No model {model!r} available to this key")

    def analyse(self, image_ids: Iterable[str], model: str) -> List[Job]:
        """Starts one job per image with the model (id or name)."""
        body = {"imageIds": list(image_ids), "modelIds": [self.model_id(model)]}
        return [Job.from_json(j) for j in self.request("POST", "/jobs", json_body=body)]

    def job(self, job_id: str) -> Job:
        return Job.from_json(self.request("GET", f"/jobs/{job_id}"))

    def wait(self, jobs: Iterable[Union[str, Job]], interval: float = 2.0, timeout: float = 3600.0) -> List[Job]:
        """Polls until every job is FINISHED, CACHED or FAILED; returns them in the given order."""
        ids = [j if isinstance(j, str) else j.id for j in jobs]
        done: Dict[str, Job] = {}
        deadline = time.monotonic() + timeout
        while len(done) < len(ids):
            for job_id in ids:
                if job_id not in done:
                    job = self.job(job_id)
                    if job.status in DONE:
                        done[job_id] = job
            if len(done) < len(ids):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(ids) - len(done)} jobs not done after {timeout} s")
                time.sleep(interval)
        return [done[i] for i in ids]

    def results(self, job: Union[str, Job]) -> JobResult:
        """The result of a finished job: items, measurements and the names of its files."""
        job = self.job(job) if isinstance(job, str) else job
        if not job.resultId:
            raise ApiError(409, "NO_RESULT", f"Job {job.id} has no result ({job.status})")
        return JobResult.from_json(self.request("GET", f"/jobs/results/{job.resultId}"))

    def export(self, jobs: Iterable[Union[str, Job]], path: str, format: str = "csv") -> str:
        """The jobs' table (one row per job) as CSV or XLSX, written to `path`."""
        ids = [j if isinstance(j, str) else j.id for j in jobs]
        data = self.request("GET", "/jobs/export", query={"jobsIds": ids, "format": format})
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else json.dumps(data).encode())
        return path

    def objects(self, job: Union[str, Job], path: str, format: str = "objects.csv") -> str:
        """A job's objects: labels.tif, rois.zip, objects.geojson, objects.csv or objects.xlsx, written to `path`."""
        job = self.job(job) if isinstance(job, str) else job
        data = self.request("GET", f"/jobs/results/{job.resultId}/formats/{format}")
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else json.dumps(data).encode())
        return path

    def report(self, job: Union[str, Job], path: str, format: str = "pdf") -> str:
        """A job's report (PDF or XLSX), written to `path`."""
        job_id = job if isinstance(job, str) else job.id
        data = self.request("GET", f"/jobs/{job_id}/report", query={"format": format})
        with open(path, "wb") as f:
            f.write(data)
        return path
