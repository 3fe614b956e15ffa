export namespace agentimport {
	
	export class Ignored {
	    field: string;
	    line?: number;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new Ignored(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.field = source["field"];
	        this.line = source["line"];
	        this.reason = source["reason"];
	    }
	}
	export class Unmapped {
	    tool: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new Unmapped(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.reason = source["reason"];
	    }
	}
	export class Mapping {
	    from: string;
	    to: string[];
	    verified: boolean;
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new Mapping(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.verified = source["verified"];
	        this.note = source["note"];
	    }
	}
	export class Coworker {
	    id: string;
	    name: string;
	    description: string;
	    into?: boolean;
	    source: string;
	    kind: string;
	    tools: string[];
	    mapped: Mapping[];
	    unmapped: Unmapped[];
	    skills: string[];
	    model?: string;
	    instructions?: string;
	    ignored: Ignored[];
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new Coworker(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.into = source["into"];
	        this.source = source["source"];
	        this.kind = source["kind"];
	        this.tools = source["tools"];
	        this.mapped = this.convertValues(source["mapped"], Mapping);
	        this.unmapped = this.convertValues(source["unmapped"], Unmapped);
	        this.skills = source["skills"];
	        this.model = source["model"];
	        this.instructions = source["instructions"];
	        this.ignored = this.convertValues(source["ignored"], Ignored);
	        this.notes = source["notes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Source {
	    path: string;
	    kind: string;
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.kind = source["kind"];
	        this.notes = source["notes"];
	    }
	}
	export class Plan {
	    coworkers: Coworker[];
	    servers?: servers.ImportPlan;
	    sources: Source[];
	    problems: string[];
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.coworkers = this.convertValues(source["coworkers"], Coworker);
	        this.servers = this.convertValues(source["servers"], servers.ImportPlan);
	        this.sources = this.convertValues(source["sources"], Source);
	        this.problems = source["problems"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Written {
	    id: string;
	    dir: string;
	    skills: string[];
	    into?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Written(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.dir = source["dir"];
	        this.skills = source["skills"];
	        this.into = source["into"];
	    }
	}
	export class Result {
	    coworkers: Written[];
	    servers_added: number;
	    servers_file?: string;
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.coworkers = this.convertValues(source["coworkers"], Written);
	        this.servers_added = source["servers_added"];
	        this.servers_file = source["servers_file"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	

}

export namespace app {
	
	export class AgentImportPreview {
	    token: string;
	    plan?: agentimport.Plan;
	
	    static createFrom(source: any = {}) {
	        return new AgentImportPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.plan = this.convertValues(source["plan"], agentimport.Plan);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FolderHint {
	    kind: string;
	    picked: string;
	    bundle: string;
	    parent: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new FolderHint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.picked = source["picked"];
	        this.bundle = source["bundle"];
	        this.parent = source["parent"];
	        this.message = source["message"];
	    }
	}
	export class BrokenBundle {
	    id: string;
	    name: string;
	    dir: string;
	    file: string;
	    line: number;
	    col: number;
	    message: string;
	    fix: string;
	    provider: string;
	
	    static createFrom(source: any = {}) {
	        return new BrokenBundle(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.dir = source["dir"];
	        this.file = source["file"];
	        this.line = source["line"];
	        this.col = source["col"];
	        this.message = source["message"];
	        this.fix = source["fix"];
	        this.provider = source["provider"];
	    }
	}
	export class ExtensionUse {
	    name: string;
	    display_name: string;
	    version: string;
	    namespace: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionUse(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.display_name = source["display_name"];
	        this.version = source["version"];
	        this.namespace = source["namespace"];
	    }
	}
	export class LeftOutInfo {
	    tool: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new LeftOutInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.message = source["message"];
	    }
	}
	export class ResolvedToolInfo {
	    name: string;
	    provider: string;
	    placement: string;
	    program_path?: string;
	    access?: string;
	
	    static createFrom(source: any = {}) {
	        return new ResolvedToolInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.provider = source["provider"];
	        this.placement = source["placement"];
	        this.program_path = source["program_path"];
	        this.access = source["access"];
	    }
	}
	export class CoworkerInfo {
	    id: string;
	    name: string;
	    description: string;
	    version: string;
	    dir: string;
	    tools: ResolvedToolInfo[];
	    left_out: LeftOutInfo[];
	    extensions: ExtensionUse[];
	    starting: boolean;
	    start_bound: number;
	
	    static createFrom(source: any = {}) {
	        return new CoworkerInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.version = source["version"];
	        this.dir = source["dir"];
	        this.tools = this.convertValues(source["tools"], ResolvedToolInfo);
	        this.left_out = this.convertValues(source["left_out"], LeftOutInfo);
	        this.extensions = this.convertValues(source["extensions"], ExtensionUse);
	        this.starting = source["starting"];
	        this.start_bound = source["start_bound"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CoworkerList {
	    dir: string;
	    coworkers: CoworkerInfo[];
	    broken: BrokenBundle[];
	    error: string;
	    hint?: FolderHint;
	
	    static createFrom(source: any = {}) {
	        return new CoworkerList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.coworkers = this.convertValues(source["coworkers"], CoworkerInfo);
	        this.broken = this.convertValues(source["broken"], BrokenBundle);
	        this.error = source["error"];
	        this.hint = this.convertValues(source["hint"], FolderHint);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AgentImportResult {
	    written?: agentimport.Result;
	    list: CoworkerList;
	
	    static createFrom(source: any = {}) {
	        return new AgentImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.written = this.convertValues(source["written"], agentimport.Result);
	        this.list = this.convertValues(source["list"], CoworkerList);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Notice {
	    level: string;
	    message: string;
	    key?: string;
	
	    static createFrom(source: any = {}) {
	        return new Notice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.level = source["level"];
	        this.message = source["message"];
	        this.key = source["key"];
	    }
	}
	export class AppInfo {
	    version: string;
	    config_dir: string;
	    journal_path: string;
	    log_file: string;
	    coworkers_dir: string;
	    model: string;
	    model_error: string;
	    runtime_error: string;
	    approval_mode: string;
	    notices: Notice[];
	    start_coworker: string;
	    theme: string;
	    first_run: boolean;
	    keychain_error?: string;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.config_dir = source["config_dir"];
	        this.journal_path = source["journal_path"];
	        this.log_file = source["log_file"];
	        this.coworkers_dir = source["coworkers_dir"];
	        this.model = source["model"];
	        this.model_error = source["model_error"];
	        this.runtime_error = source["runtime_error"];
	        this.approval_mode = source["approval_mode"];
	        this.notices = this.convertValues(source["notices"], Notice);
	        this.start_coworker = source["start_coworker"];
	        this.theme = source["theme"];
	        this.first_run = source["first_run"];
	        this.keychain_error = source["keychain_error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BackgroundSettings {
	    keep_running: boolean;
	    start_at_login: boolean;
	    question_wait_seconds: number;
	    autostart_entry: string;
	
	    static createFrom(source: any = {}) {
	        return new BackgroundSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.keep_running = source["keep_running"];
	        this.start_at_login = source["start_at_login"];
	        this.question_wait_seconds = source["question_wait_seconds"];
	        this.autostart_entry = source["autostart_entry"];
	    }
	}
	
	export class ToolInfo {
	    name: string;
	    description: string;
	    provider: string;
	    risk: string;
	    classification: string;
	    policy: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.provider = source["provider"];
	        this.risk = source["risk"];
	        this.classification = source["classification"];
	        this.policy = source["policy"];
	    }
	}
	export class ChatInfo {
	    session_id: string;
	    coworker: string;
	    coworker_name: string;
	    identity: string;
	    model: string;
	    model_name: string;
	    approval_mode: string;
	    running: boolean;
	    unattended: boolean;
	    tools: ToolInfo[];
	
	    static createFrom(source: any = {}) {
	        return new ChatInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.coworker = source["coworker"];
	        this.coworker_name = source["coworker_name"];
	        this.identity = source["identity"];
	        this.model = source["model"];
	        this.model_name = source["model_name"];
	        this.approval_mode = source["approval_mode"];
	        this.running = source["running"];
	        this.unattended = source["unattended"];
	        this.tools = this.convertValues(source["tools"], ToolInfo);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChatModelList {
	    current: string;
	    models: string[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new ChatModelList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.current = source["current"];
	        this.models = source["models"];
	        this.error = source["error"];
	    }
	}
	export class PromptArg {
	    name: string;
	    title: string;
	    description: string;
	    required: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptArg(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.required = source["required"];
	    }
	}
	export class ChatPrompt {
	    name: string;
	    title: string;
	    description: string;
	    arguments: PromptArg[];
	
	    static createFrom(source: any = {}) {
	        return new ChatPrompt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = this.convertValues(source["arguments"], PromptArg);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConnectionTest {
	    ok: boolean;
	    provider: string;
	    base_url: string;
	    model: string;
	    latency_ms: number;
	    via: string;
	    listed: boolean;
	    models: string[];
	    error: string;
	    reason: string;
	    status: number;
	    advice: string;
	
	    static createFrom(source: any = {}) {
	        return new ConnectionTest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.latency_ms = source["latency_ms"];
	        this.via = source["via"];
	        this.listed = source["listed"];
	        this.models = source["models"];
	        this.error = source["error"];
	        this.reason = source["reason"];
	        this.status = source["status"];
	        this.advice = source["advice"];
	    }
	}
	export class DraftSkill {
	    name: string;
	    description: string;
	
	    static createFrom(source: any = {}) {
	        return new DraftSkill(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	    }
	}
	export class DraftProblem {
	    field: string;
	    file: string;
	    line: number;
	    col: number;
	    message: string;
	    fix: string;
	
	    static createFrom(source: any = {}) {
	        return new DraftProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.field = source["field"];
	        this.file = source["file"];
	        this.line = source["line"];
	        this.col = source["col"];
	        this.message = source["message"];
	        this.fix = source["fix"];
	    }
	}
	export class CoworkerDraft {
	    draft: bundle.Draft;
	    dir: string;
	    new: boolean;
	    linked_to: string;
	    problems: DraftProblem[];
	    skills: DraftSkill[];
	    template: string;
	    default_limits: settings.Limits;
	
	    static createFrom(source: any = {}) {
	        return new CoworkerDraft(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.draft = this.convertValues(source["draft"], bundle.Draft);
	        this.dir = source["dir"];
	        this.new = source["new"];
	        this.linked_to = source["linked_to"];
	        this.problems = this.convertValues(source["problems"], DraftProblem);
	        this.skills = this.convertValues(source["skills"], DraftSkill);
	        this.template = source["template"];
	        this.default_limits = this.convertValues(source["default_limits"], settings.Limits);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class CoworkerPreview {
	    source: string;
	    id: string;
	    name: string;
	    description: string;
	    version: string;
	    tools: string[];
	    errors: BrokenBundle[];
	    dest: string;
	    exists: boolean;
	    refused: string;
	    can_link: boolean;
	    use_instead?: string;
	
	    static createFrom(source: any = {}) {
	        return new CoworkerPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.source = source["source"];
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.version = source["version"];
	        this.tools = source["tools"];
	        this.errors = this.convertValues(source["errors"], BrokenBundle);
	        this.dest = source["dest"];
	        this.exists = source["exists"];
	        this.refused = source["refused"];
	        this.can_link = source["can_link"];
	        this.use_instead = source["use_instead"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CoworkerTemplate {
	    id: string;
	    name: string;
	    description: string;
	    tools: string[];
	    needs_folder: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CoworkerTemplate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.tools = source["tools"];
	        this.needs_folder = source["needs_folder"];
	    }
	}
	export class CoworkerTokens {
	    today: string;
	    days: number;
	    coworkers: journal.CoworkerUsage[];
	
	    static createFrom(source: any = {}) {
	        return new CoworkerTokens(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.today = source["today"];
	        this.days = source["days"];
	        this.coworkers = this.convertValues(source["coworkers"], journal.CoworkerUsage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DiagnosticsServer {
	    namespace: string;
	    coworkers: string[];
	    may_download: string;
	
	    static createFrom(source: any = {}) {
	        return new DiagnosticsServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.namespace = source["namespace"];
	        this.coworkers = source["coworkers"];
	        this.may_download = source["may_download"];
	    }
	}
	export class DiagnosticsPlan {
	    servers: DiagnosticsServer[];
	    unused: string[];
	
	    static createFrom(source: any = {}) {
	        return new DiagnosticsPlan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.servers = this.convertValues(source["servers"], DiagnosticsServer);
	        this.unused = source["unused"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DiagnosticsReport {
	    sections: doctor.Section[];
	    text: string;
	    took_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new DiagnosticsReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sections = this.convertValues(source["sections"], doctor.Section);
	        this.text = source["text"];
	        this.took_ms = source["took_ms"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	export class ExtensionAuthor {
	    name: string;
	    email: string;
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionAuthor(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.email = source["email"];
	        this.url = source["url"];
	    }
	}
	export class ExtensionField {
	    key: string;
	    type: string;
	    title: string;
	    description: string;
	    required: boolean;
	    default: any;
	    multiple: boolean;
	    sensitive: boolean;
	    min?: number;
	    max?: number;
	    kept: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.type = source["type"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.required = source["required"];
	        this.default = source["default"];
	        this.multiple = source["multiple"];
	        this.sensitive = source["sensitive"];
	        this.min = source["min"];
	        this.max = source["max"];
	        this.kept = source["kept"];
	    }
	}
	export class ExtensionInstalled {
	    name: string;
	    display_name: string;
	    version: string;
	    namespace: string;
	    upgraded: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionInstalled(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.display_name = source["display_name"];
	        this.version = source["version"];
	        this.namespace = source["namespace"];
	        this.upgraded = source["upgraded"];
	    }
	}
	export class ExtensionItem {
	    name: string;
	    description: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	    }
	}
	export class ExtensionSandbox {
	    words: string;
	    note: string;
	    on: boolean;
	    unsupported: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionSandbox(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.words = source["words"];
	        this.note = source["note"];
	        this.on = source["on"];
	        this.unsupported = source["unsupported"];
	    }
	}
	export class ExtensionSig {
	    status: string;
	    subject: string;
	    problem: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionSig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.subject = source["subject"];
	        this.problem = source["problem"];
	    }
	}
	export class ExtensionRuntime {
	    name: string;
	    title: string;
	    range: string;
	    url: string;
	    found: string;
	    fits: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionRuntime(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.range = source["range"];
	        this.url = source["url"];
	        this.found = source["found"];
	        this.fits = source["fits"];
	    }
	}
	export class ExtensionPreview {
	    path: string;
	    display_name: string;
	    name: string;
	    version: string;
	    author: ExtensionAuthor;
	    description: string;
	    homepage: string;
	    tools: ExtensionItem[];
	    tools_generated: boolean;
	    prompts: ExtensionItem[];
	    prompts_generated: boolean;
	    server_type: string;
	    runtime: ExtensionRuntime;
	    platforms: string[];
	    runs: string;
	    environment: string;
	    signature: ExtensionSig;
	    privacy_policies: string[];
	    namespace: string;
	    installed: string;
	    blocking: string[];
	    warnings: string[];
	    files: number;
	    bytes: number;
	    fields: ExtensionField[];
	    sandbox: ExtensionSandbox;
	    digest: string;
	
	    static createFrom(source: any = {}) {
	        return new ExtensionPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.display_name = source["display_name"];
	        this.name = source["name"];
	        this.version = source["version"];
	        this.author = this.convertValues(source["author"], ExtensionAuthor);
	        this.description = source["description"];
	        this.homepage = source["homepage"];
	        this.tools = this.convertValues(source["tools"], ExtensionItem);
	        this.tools_generated = source["tools_generated"];
	        this.prompts = this.convertValues(source["prompts"], ExtensionItem);
	        this.prompts_generated = source["prompts_generated"];
	        this.server_type = source["server_type"];
	        this.runtime = this.convertValues(source["runtime"], ExtensionRuntime);
	        this.platforms = source["platforms"];
	        this.runs = source["runs"];
	        this.environment = source["environment"];
	        this.signature = this.convertValues(source["signature"], ExtensionSig);
	        this.privacy_policies = source["privacy_policies"];
	        this.namespace = source["namespace"];
	        this.installed = source["installed"];
	        this.blocking = source["blocking"];
	        this.warnings = source["warnings"];
	        this.files = source["files"];
	        this.bytes = source["bytes"];
	        this.fields = this.convertValues(source["fields"], ExtensionField);
	        this.sandbox = this.convertValues(source["sandbox"], ExtensionSandbox);
	        this.digest = source["digest"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	
	export class FoundServerConfig {
	    client: string;
	    path: string;
	    format: string;
	    servers: number;
	    error: string;
	    in_use: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FoundServerConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.path = source["path"];
	        this.format = source["format"];
	        this.servers = source["servers"];
	        this.error = source["error"];
	        this.in_use = source["in_use"];
	    }
	}
	export class GaveTools {
	    id: string;
	    name: string;
	    dir: string;
	    created: boolean;
	    added: string[];
	
	    static createFrom(source: any = {}) {
	        return new GaveTools(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.dir = source["dir"];
	        this.created = source["created"];
	        this.added = source["added"];
	    }
	}
	export class InboxEntry {
	    id: string;
	    kind: string;
	    coworker: string;
	    session_id: string;
	    tool: string;
	    what: string;
	    asked: number[];
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    deadline: any;
	    parked: boolean;
	    answers: string[];
	
	    static createFrom(source: any = {}) {
	        return new InboxEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.coworker = source["coworker"];
	        this.session_id = source["session_id"];
	        this.tool = source["tool"];
	        this.what = source["what"];
	        this.asked = source["asked"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.deadline = this.convertValues(source["deadline"], null);
	        this.parked = source["parked"];
	        this.answers = source["answers"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class InstalledExtension {
	    name: string;
	    display_name: string;
	    version: string;
	    namespace: string;
	    signature: string;
	    signer: string;
	    installed_at: string;
	    sensitive: string[];
	    sandboxed: boolean;
	    access: string;
	    sandbox_unsupported: string;
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new InstalledExtension(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.display_name = source["display_name"];
	        this.version = source["version"];
	        this.namespace = source["namespace"];
	        this.signature = source["signature"];
	        this.signer = source["signer"];
	        this.installed_at = source["installed_at"];
	        this.sensitive = source["sensitive"];
	        this.sandboxed = source["sandboxed"];
	        this.access = source["access"];
	        this.sandbox_unsupported = source["sandbox_unsupported"];
	        this.error = source["error"];
	    }
	}
	
	export class ModelList {
	    provider: string;
	    base_url: string;
	    api: string;
	    models: string[];
	
	    static createFrom(source: any = {}) {
	        return new ModelList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.base_url = source["base_url"];
	        this.api = source["api"];
	        this.models = source["models"];
	    }
	}
	
	export class OllamaFound {
	    running: boolean;
	    url: string;
	    base_url: string;
	    models: string[];
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new OllamaFound(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.url = source["url"];
	        this.base_url = source["base_url"];
	        this.models = source["models"];
	        this.error = source["error"];
	    }
	}
	export class PendingApproval {
	    id: string;
	    request: consent.Request;
	    // Go type: time
	    deadline: any;
	
	    static createFrom(source: any = {}) {
	        return new PendingApproval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.request = this.convertValues(source["request"], consent.Request);
	        this.deadline = this.convertValues(source["deadline"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PendingElicitation {
	    question: elicit.Question;
	    coworker: string;
	    coworker_name: string;
	    // Go type: time
	    asked: any;
	    item: string;
	
	    static createFrom(source: any = {}) {
	        return new PendingElicitation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.question = this.convertValues(source["question"], elicit.Question);
	        this.coworker = source["coworker"];
	        this.coworker_name = source["coworker_name"];
	        this.asked = this.convertValues(source["asked"], null);
	        this.item = source["item"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class SavedCoworker {
	    dir: string;
	    id: string;
	    name: string;
	    written: string;
	
	    static createFrom(source: any = {}) {
	        return new SavedCoworker(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.id = source["id"];
	        this.name = source["name"];
	        this.written = source["written"];
	    }
	}
	export class SavedPolicy {
	    coworker: string;
	    tool: string;
	    descriptor_digest: string;
	    policy: string;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    updated_at: any;
	    ignored?: string;
	
	    static createFrom(source: any = {}) {
	        return new SavedPolicy(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.coworker = source["coworker"];
	        this.tool = source["tool"];
	        this.descriptor_digest = source["descriptor_digest"];
	        this.policy = source["policy"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.updated_at = this.convertValues(source["updated_at"], null);
	        this.ignored = source["ignored"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScheduleInfo {
	    id: string;
	    coworker: string;
	    prompt: string;
	    every?: number;
	    cron?: string;
	    time_zone?: string;
	    catch_up: boolean;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    removed_at: any;
	    when: string;
	    last_run?: journal.ScheduleRun;
	    // Go type: time
	    next: any;
	
	    static createFrom(source: any = {}) {
	        return new ScheduleInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.coworker = source["coworker"];
	        this.prompt = source["prompt"];
	        this.every = source["every"];
	        this.cron = source["cron"];
	        this.time_zone = source["time_zone"];
	        this.catch_up = source["catch_up"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.removed_at = this.convertValues(source["removed_at"], null);
	        this.when = source["when"];
	        this.last_run = this.convertValues(source["last_run"], journal.ScheduleRun);
	        this.next = this.convertValues(source["next"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScheduleInput {
	    coworker: string;
	    prompt: string;
	    when: string;
	    catch_up: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ScheduleInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.coworker = source["coworker"];
	        this.prompt = source["prompt"];
	        this.when = source["when"];
	        this.catch_up = source["catch_up"];
	    }
	}
	export class ServerInUse {
	    namespace: string;
	    name: string;
	    source: string;
	    remote: string;
	    broken: string;
	
	    static createFrom(source: any = {}) {
	        return new ServerInUse(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.namespace = source["namespace"];
	        this.name = source["name"];
	        this.source = source["source"];
	        this.remote = source["remote"];
	        this.broken = source["broken"];
	    }
	}
	export class ServerInput {
	    id: string;
	    description: string;
	    password: boolean;
	    answered: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ServerInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.description = source["description"];
	        this.password = source["password"];
	        this.answered = source["answered"];
	    }
	}
	export class SettingsView {
	    settings: settings.Settings;
	    key_stored: Record<string, boolean>;
	    keychain_errors: Record<string, string>;
	    key_from_env: Record<string, boolean>;
	    model: string;
	    effective: Record<string, settings.ProviderSettings>;
	    model_error: string;
	    model_warning: string;
	    settings_file: string;
	    servers_loaded: string;
	    servers_error: string;
	    servers_unreadable: boolean;
	    servers_notices: string[];
	    server_inputs: ServerInput[];
	    run_flags: string[];
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.settings = this.convertValues(source["settings"], settings.Settings);
	        this.key_stored = source["key_stored"];
	        this.keychain_errors = source["keychain_errors"];
	        this.key_from_env = source["key_from_env"];
	        this.model = source["model"];
	        this.effective = this.convertValues(source["effective"], settings.ProviderSettings, true);
	        this.model_error = source["model_error"];
	        this.model_warning = source["model_warning"];
	        this.settings_file = source["settings_file"];
	        this.servers_loaded = source["servers_loaded"];
	        this.servers_error = source["servers_error"];
	        this.servers_unreadable = source["servers_unreadable"];
	        this.servers_notices = source["servers_notices"];
	        this.server_inputs = this.convertValues(source["server_inputs"], ServerInput);
	        this.run_flags = source["run_flags"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SetupState {
	    show: boolean;
	    done: boolean;
	    ollama_url: string;
	
	    static createFrom(source: any = {}) {
	        return new SetupState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.show = source["show"];
	        this.done = source["done"];
	        this.ollama_url = source["ollama_url"];
	    }
	}
	export class SignedInServer {
	    namespace: string;
	    server: string;
	    issuer: string;
	
	    static createFrom(source: any = {}) {
	        return new SignedInServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.namespace = source["namespace"];
	        this.server = source["server"];
	        this.issuer = source["issuer"];
	    }
	}
	
	export class ToolProvider {
	    namespace: string;
	    provider: string;
	    kind: string;
	    title: string;
	    source: string;
	    tools: harness.CatalogTool[];
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolProvider(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.namespace = source["namespace"];
	        this.provider = source["provider"];
	        this.kind = source["kind"];
	        this.title = source["title"];
	        this.source = source["source"];
	        this.tools = this.convertValues(source["tools"], harness.CatalogTool);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ViewCSP {
	    connect: string[];
	    resource: string[];
	    frame: string[];
	    base_uri: string[];
	
	    static createFrom(source: any = {}) {
	        return new ViewCSP(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.connect = source["connect"];
	        this.resource = source["resource"];
	        this.frame = source["frame"];
	        this.base_uri = source["base_uri"];
	    }
	}
	export class ToolView {
	    session_id: string;
	    invocation_id: string;
	    tool: string;
	    uri: string;
	    digest: string;
	    size: number;
	    html: string;
	    csp: ViewCSP;
	    permissions: string[];
	    prefers_border?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.invocation_id = source["invocation_id"];
	        this.tool = source["tool"];
	        this.uri = source["uri"];
	        this.digest = source["digest"];
	        this.size = source["size"];
	        this.html = source["html"];
	        this.csp = this.convertValues(source["csp"], ViewCSP);
	        this.permissions = source["permissions"];
	        this.prefers_border = source["prefers_border"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TrashedCoworker {
	    id: string;
	    name: string;
	    token: string;
	    where: string;
	
	    static createFrom(source: any = {}) {
	        return new TrashedCoworker(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.token = source["token"];
	        this.where = source["where"];
	    }
	}
	export class UpdateStatus {
	    on: boolean;
	    state: string;
	    current: string;
	    latest?: string;
	    notes?: string;
	    done: number;
	    total: number;
	    error?: string;
	    checked?: string;
	
	    static createFrom(source: any = {}) {
	        return new UpdateStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.on = source["on"];
	        this.state = source["state"];
	        this.current = source["current"];
	        this.latest = source["latest"];
	        this.notes = source["notes"];
	        this.done = source["done"];
	        this.total = source["total"];
	        this.error = source["error"];
	        this.checked = source["checked"];
	    }
	}
	
	export class ViewToolResult {
	    status: string;
	    code?: string;
	    error?: string;
	    invocation_id?: string;
	    content: tool.Block[];
	    structured?: number[];
	
	    static createFrom(source: any = {}) {
	        return new ViewToolResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.status = source["status"];
	        this.code = source["code"];
	        this.error = source["error"];
	        this.invocation_id = source["invocation_id"];
	        this.content = this.convertValues(source["content"], tool.Block);
	        this.structured = source["structured"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Waiting {
	    sessions: number;
	    calls: number;
	
	    static createFrom(source: any = {}) {
	        return new Waiting(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessions = source["sessions"];
	        this.calls = source["calls"];
	    }
	}
	export class WindowPaint {
	    html_parsed_ms: number;
	    first_paint_ms: number;
	    first_contentful_paint_ms: number;
	    mounted_ms: number;
	
	    static createFrom(source: any = {}) {
	        return new WindowPaint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.html_parsed_ms = source["html_parsed_ms"];
	        this.first_paint_ms = source["first_paint_ms"];
	        this.first_contentful_paint_ms = source["first_contentful_paint_ms"];
	        this.mounted_ms = source["mounted_ms"];
	    }
	}

}

export namespace bundle {
	
	export class Limits {
	    tokensPerRun: number;
	    tokensPerDay: number;
	    toolCallsPerRun: number;
	
	    static createFrom(source: any = {}) {
	        return new Limits(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokensPerRun = source["tokensPerRun"];
	        this.tokensPerDay = source["tokensPerDay"];
	        this.toolCallsPerRun = source["toolCallsPerRun"];
	    }
	}
	export class Draft {
	    id: string;
	    name: string;
	    description: string;
	    version: string;
	    instructions: string;
	    tools: string[];
	    wholeProviders?: string[];
	    policy: Record<string, string>;
	    skills: string[];
	    sampling: string[];
	    model: string;
	    folder: string;
	    requiresSandbox: boolean;
	    limits: Limits;
	    otherKeys?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Draft(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.version = source["version"];
	        this.instructions = source["instructions"];
	        this.tools = source["tools"];
	        this.wholeProviders = source["wholeProviders"];
	        this.policy = source["policy"];
	        this.skills = source["skills"];
	        this.sampling = source["sampling"];
	        this.model = source["model"];
	        this.folder = source["folder"];
	        this.requiresSandbox = source["requiresSandbox"];
	        this.limits = this.convertValues(source["limits"], Limits);
	        this.otherKeys = source["otherKeys"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace consent {
	
	export class Grant {
	    tool: string;
	    digest: string;
	
	    static createFrom(source: any = {}) {
	        return new Grant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.digest = source["digest"];
	    }
	}
	export class SamplingMessage {
	    role: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new SamplingMessage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.text = source["text"];
	    }
	}
	export class SamplingRequest {
	    namespace: string;
	    server_name?: string;
	    messages: SamplingMessage[];
	    system_prompt?: string;
	    max_tokens: number;
	    asked_max_tokens: number;
	    model: string;
	    invocation: string;
	    seq: number;
	
	    static createFrom(source: any = {}) {
	        return new SamplingRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.namespace = source["namespace"];
	        this.server_name = source["server_name"];
	        this.messages = this.convertValues(source["messages"], SamplingMessage);
	        this.system_prompt = source["system_prompt"];
	        this.max_tokens = source["max_tokens"];
	        this.asked_max_tokens = source["asked_max_tokens"];
	        this.model = source["model"];
	        this.invocation = source["invocation"];
	        this.seq = source["seq"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Request {
	    session_id: string;
	    turn_id: string;
	    call_id: string;
	    coworker: string;
	    coworker_name: string;
	    tool: string;
	    description: string;
	    provider: string;
	    placement: string;
	    access?: string;
	    classification: string;
	    risk: string;
	    arguments: number[];
	    sampling?: SamplingRequest;
	    origin?: string;
	
	    static createFrom(source: any = {}) {
	        return new Request(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.call_id = source["call_id"];
	        this.coworker = source["coworker"];
	        this.coworker_name = source["coworker_name"];
	        this.tool = source["tool"];
	        this.description = source["description"];
	        this.provider = source["provider"];
	        this.placement = source["placement"];
	        this.access = source["access"];
	        this.classification = source["classification"];
	        this.risk = source["risk"];
	        this.arguments = source["arguments"];
	        this.sampling = this.convertValues(source["sampling"], SamplingRequest);
	        this.origin = source["origin"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace doctor {
	
	export class Fact {
	    key: string;
	    status?: string;
	    value: string;
	
	    static createFrom(source: any = {}) {
	        return new Fact(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.status = source["status"];
	        this.value = source["value"];
	    }
	}
	export class Section {
	    name: string;
	    facts: Fact[];
	
	    static createFrom(source: any = {}) {
	        return new Section(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.facts = this.convertValues(source["facts"], Fact);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace elicit {
	
	export class Option {
	    value: string;
	    title: string;
	
	    static createFrom(source: any = {}) {
	        return new Option(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.value = source["value"];
	        this.title = source["title"];
	    }
	}
	export class Field {
	    name: string;
	    title?: string;
	    description?: string;
	    kind: string;
	    required?: boolean;
	    format?: string;
	    min_length?: number;
	    max_length?: number;
	    minimum?: number;
	    maximum?: number;
	    options?: Option[];
	    min_items?: number;
	    max_items?: number;
	    default?: number[];
	
	    static createFrom(source: any = {}) {
	        return new Field(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.kind = source["kind"];
	        this.required = source["required"];
	        this.format = source["format"];
	        this.min_length = source["min_length"];
	        this.max_length = source["max_length"];
	        this.minimum = source["minimum"];
	        this.maximum = source["maximum"];
	        this.options = this.convertValues(source["options"], Option);
	        this.min_items = source["min_items"];
	        this.max_items = source["max_items"];
	        this.default = source["default"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Question {
	    id: string;
	    namespace: string;
	    server_name: string;
	    session_id: string;
	    turn_id: string;
	    invocation: string;
	    call_id: string;
	    tool: string;
	    mode: string;
	    url?: string;
	    host?: string;
	    message: string;
	    fields: Field[];
	    // Go type: time
	    deadline: any;
	    seq: number;
	    problem?: string;
	    previous?: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Question(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.namespace = source["namespace"];
	        this.server_name = source["server_name"];
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.invocation = source["invocation"];
	        this.call_id = source["call_id"];
	        this.tool = source["tool"];
	        this.mode = source["mode"];
	        this.url = source["url"];
	        this.host = source["host"];
	        this.message = source["message"];
	        this.fields = this.convertValues(source["fields"], Field);
	        this.deadline = this.convertValues(source["deadline"], null);
	        this.seq = source["seq"];
	        this.problem = source["problem"];
	        this.previous = source["previous"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace harness {
	
	export class CatalogTool {
	    name: string;
	    title?: string;
	    description: string;
	    effect: string;
	    idempotent?: boolean;
	    open_world?: boolean;
	    refused?: string;
	
	    static createFrom(source: any = {}) {
	        return new CatalogTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.effect = source["effect"];
	        this.idempotent = source["idempotent"];
	        this.open_world = source["open_world"];
	        this.refused = source["refused"];
	    }
	}
	export class TurnResult {
	    turn_id: string;
	    status: string;
	    reason?: string;
	    text: string;
	    attempts: number;
	    calls: number;
	    code?: string;
	
	    static createFrom(source: any = {}) {
	        return new TurnResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turn_id = source["turn_id"];
	        this.status = source["status"];
	        this.reason = source["reason"];
	        this.text = source["text"];
	        this.attempts = source["attempts"];
	        this.calls = source["calls"];
	        this.code = source["code"];
	    }
	}

}

export namespace journal {
	
	export class Approval {
	    id: number;
	    session_id: string;
	    turn_id?: string;
	    invocation_id: string;
	    call_id: string;
	    tool: string;
	    decision: string;
	    scope: string;
	    source: string;
	    reason: string;
	    identity: string;
	    // Go type: time
	    created_at: any;
	
	    static createFrom(source: any = {}) {
	        return new Approval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.invocation_id = source["invocation_id"];
	        this.call_id = source["call_id"];
	        this.tool = source["tool"];
	        this.decision = source["decision"];
	        this.scope = source["scope"];
	        this.source = source["source"];
	        this.reason = source["reason"];
	        this.identity = source["identity"];
	        this.created_at = this.convertValues(source["created_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class UsageTotal {
	    input_tokens: number;
	    output_tokens: number;
	    responses: number;
	
	    static createFrom(source: any = {}) {
	        return new UsageTotal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input_tokens = source["input_tokens"];
	        this.output_tokens = source["output_tokens"];
	        this.responses = source["responses"];
	    }
	}
	export class CoworkerUsage {
	    coworker: string;
	    today: UsageTotal;
	    days: UsageTotal;
	
	    static createFrom(source: any = {}) {
	        return new CoworkerUsage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.coworker = source["coworker"];
	        this.today = this.convertValues(source["today"], UsageTotal);
	        this.days = this.convertValues(source["days"], UsageTotal);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Invocation {
	    id: string;
	    session_id: string;
	    turn_id?: string;
	    call_id: string;
	    tool: string;
	    alias: string;
	    provider: string;
	    remote_name: string;
	    placement?: string;
	    risk: string;
	    descriptor_digest: string;
	    arguments: number[];
	    status: string;
	    result?: number[];
	    result_digest?: string;
	    error_code?: string;
	    error?: string;
	    effect: string;
	    reconciled: string;
	    reconciled_by?: string;
	    // Go type: time
	    reconciled_at: any;
	    duration_ms: number;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    started_at: any;
	    // Go type: time
	    finished_at: any;
	    origin?: string;
	    ui_uri?: string;
	    ui_size?: number;
	    ui_digest?: string;
	
	    static createFrom(source: any = {}) {
	        return new Invocation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.call_id = source["call_id"];
	        this.tool = source["tool"];
	        this.alias = source["alias"];
	        this.provider = source["provider"];
	        this.remote_name = source["remote_name"];
	        this.placement = source["placement"];
	        this.risk = source["risk"];
	        this.descriptor_digest = source["descriptor_digest"];
	        this.arguments = source["arguments"];
	        this.status = source["status"];
	        this.result = source["result"];
	        this.result_digest = source["result_digest"];
	        this.error_code = source["error_code"];
	        this.error = source["error"];
	        this.effect = source["effect"];
	        this.reconciled = source["reconciled"];
	        this.reconciled_by = source["reconciled_by"];
	        this.reconciled_at = this.convertValues(source["reconciled_at"], null);
	        this.duration_ms = source["duration_ms"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.origin = source["origin"];
	        this.ui_uri = source["ui_uri"];
	        this.ui_size = source["ui_size"];
	        this.ui_digest = source["ui_digest"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Message {
	    id: number;
	    session_id: string;
	    turn_id?: string;
	    role: string;
	    content: number[];
	    // Go type: time
	    created_at: any;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.created_at = this.convertValues(source["created_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ScheduleRun {
	    id: number;
	    schedule_id: string;
	    // Go type: time
	    slot: any;
	    missed: number;
	    session_id?: string;
	    status: string;
	    // Go type: time
	    claimed_at: any;
	
	    static createFrom(source: any = {}) {
	        return new ScheduleRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.schedule_id = source["schedule_id"];
	        this.slot = this.convertValues(source["slot"], null);
	        this.missed = source["missed"];
	        this.session_id = source["session_id"];
	        this.status = source["status"];
	        this.claimed_at = this.convertValues(source["claimed_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Session {
	    id: string;
	    coworker: string;
	    coworker_version: string;
	    identity: string;
	    provider: string;
	    model: string;
	    approve: string;
	    status: string;
	    error: string;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    updated_at: any;
	    identity_parts?: number[];
	    first_prompt?: string;
	    interrupted?: boolean;
	    unreconciled?: number;
	    title: string;
	    title_set?: boolean;
	    hidden?: boolean;
	    // Go type: time
	    last_activity: any;
	
	    static createFrom(source: any = {}) {
	        return new Session(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.coworker = source["coworker"];
	        this.coworker_version = source["coworker_version"];
	        this.identity = source["identity"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.approve = source["approve"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.updated_at = this.convertValues(source["updated_at"], null);
	        this.identity_parts = source["identity_parts"];
	        this.first_prompt = source["first_prompt"];
	        this.interrupted = source["interrupted"];
	        this.unreconciled = source["unreconciled"];
	        this.title = source["title"];
	        this.title_set = source["title_set"];
	        this.hidden = source["hidden"];
	        this.last_activity = this.convertValues(source["last_activity"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Warning {
	    id: number;
	    session_id: string;
	    turn_id?: string;
	    code: string;
	    tool?: string;
	    message: string;
	    // Go type: time
	    created_at: any;
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session_id = source["session_id"];
	        this.turn_id = source["turn_id"];
	        this.code = source["code"];
	        this.tool = source["tool"];
	        this.message = source["message"];
	        this.created_at = this.convertValues(source["created_at"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Turn {
	    id: string;
	    session_id: string;
	    seq: number;
	    prompt: string;
	    status: string;
	    reason: string;
	    attempts: number;
	    calls: number;
	    // Go type: time
	    started_at: any;
	    // Go type: time
	    finished_at: any;
	    model?: string;
	    approve?: string;
	
	    static createFrom(source: any = {}) {
	        return new Turn(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.session_id = source["session_id"];
	        this.seq = source["seq"];
	        this.prompt = source["prompt"];
	        this.status = source["status"];
	        this.reason = source["reason"];
	        this.attempts = source["attempts"];
	        this.calls = source["calls"];
	        this.started_at = this.convertValues(source["started_at"], null);
	        this.finished_at = this.convertValues(source["finished_at"], null);
	        this.model = source["model"];
	        this.approve = source["approve"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionDetail {
	    id: string;
	    coworker: string;
	    coworker_version: string;
	    identity: string;
	    provider: string;
	    model: string;
	    approve: string;
	    status: string;
	    error: string;
	    // Go type: time
	    created_at: any;
	    // Go type: time
	    updated_at: any;
	    identity_parts?: number[];
	    first_prompt?: string;
	    interrupted?: boolean;
	    unreconciled?: number;
	    title: string;
	    title_set?: boolean;
	    hidden?: boolean;
	    // Go type: time
	    last_activity: any;
	    turns: Turn[];
	    messages: Message[];
	    invocations: Invocation[];
	    approvals: Approval[];
	    warnings: Warning[];
	
	    static createFrom(source: any = {}) {
	        return new SessionDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.coworker = source["coworker"];
	        this.coworker_version = source["coworker_version"];
	        this.identity = source["identity"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.approve = source["approve"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.created_at = this.convertValues(source["created_at"], null);
	        this.updated_at = this.convertValues(source["updated_at"], null);
	        this.identity_parts = source["identity_parts"];
	        this.first_prompt = source["first_prompt"];
	        this.interrupted = source["interrupted"];
	        this.unreconciled = source["unreconciled"];
	        this.title = source["title"];
	        this.title_set = source["title_set"];
	        this.hidden = source["hidden"];
	        this.last_activity = this.convertValues(source["last_activity"], null);
	        this.turns = this.convertValues(source["turns"], Turn);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.invocations = this.convertValues(source["invocations"], Invocation);
	        this.approvals = this.convertValues(source["approvals"], Approval);
	        this.warnings = this.convertValues(source["warnings"], Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionPage {
	    sessions: Session[];
	    next: string;
	
	    static createFrom(source: any = {}) {
	        return new SessionPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessions = this.convertValues(source["sessions"], Session);
	        this.next = source["next"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	

}

export namespace servers {
	
	export class SharedInput {
	    namespace: string;
	    field: string;
	    input: string;
	
	    static createFrom(source: any = {}) {
	        return new SharedInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.namespace = source["namespace"];
	        this.field = source["field"];
	        this.input = source["input"];
	    }
	}
	export class ImportItem {
	    name: string;
	    line: number;
	    namespace: string;
	    transport: string;
	    target: string;
	    env_keys: string[];
	    placement: string;
	    disabled: boolean;
	    inputs: string[];
	    action: string;
	    why: string;
	    notices: string[];
	    program?: string;
	    program_missing?: string;
	    secrets_kept?: string;
	    secrets?: SharedInput[];
	
	    static createFrom(source: any = {}) {
	        return new ImportItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.line = source["line"];
	        this.namespace = source["namespace"];
	        this.transport = source["transport"];
	        this.target = source["target"];
	        this.env_keys = source["env_keys"];
	        this.placement = source["placement"];
	        this.disabled = source["disabled"];
	        this.inputs = source["inputs"];
	        this.action = source["action"];
	        this.why = source["why"];
	        this.notices = source["notices"];
	        this.program = source["program"];
	        this.program_missing = source["program_missing"];
	        this.secrets_kept = source["secrets_kept"];
	        this.secrets = this.convertValues(source["secrets"], SharedInput);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ImportPlan {
	    from: string;
	    format: string;
	    dest: string;
	    kept: number;
	    items: ImportItem[];
	    notices: string[];
	    digest: string;
	    no_keychain?: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportPlan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.format = source["format"];
	        this.dest = source["dest"];
	        this.kept = source["kept"];
	        this.items = this.convertValues(source["items"], ImportItem);
	        this.notices = source["notices"];
	        this.digest = source["digest"];
	        this.no_keychain = source["no_keychain"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace settings {
	
	export class Limits {
	    tokens_per_run: number;
	    tokens_per_day: number;
	    tool_calls_per_run: number;
	
	    static createFrom(source: any = {}) {
	        return new Limits(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tokens_per_run = source["tokens_per_run"];
	        this.tokens_per_day = source["tokens_per_day"];
	        this.tool_calls_per_run = source["tool_calls_per_run"];
	    }
	}
	export class ProviderSettings {
	    base_url: string;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	    }
	}
	export class Settings {
	    provider: string;
	    openai: ProviderSettings;
	    anthropic: ProviderSettings;
	    coworkers_dir: string;
	    servers_path: string;
	    approval_mode: string;
	    theme: string;
	    updates_off?: boolean;
	    limits: Limits;
	    setup_done?: boolean;
	    keep_running?: boolean;
	    start_at_login?: boolean;
	    question_wait_seconds?: number;
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.openai = this.convertValues(source["openai"], ProviderSettings);
	        this.anthropic = this.convertValues(source["anthropic"], ProviderSettings);
	        this.coworkers_dir = source["coworkers_dir"];
	        this.servers_path = source["servers_path"];
	        this.approval_mode = source["approval_mode"];
	        this.theme = source["theme"];
	        this.updates_off = source["updates_off"];
	        this.limits = this.convertValues(source["limits"], Limits);
	        this.setup_done = source["setup_done"];
	        this.keep_running = source["keep_running"];
	        this.start_at_login = source["start_at_login"];
	        this.question_wait_seconds = source["question_wait_seconds"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace tool {
	
	export class Block {
	    type: string;
	    text?: string;
	    uri?: string;
	    name?: string;
	    title?: string;
	    description?: string;
	    mime_type?: string;
	    bytes?: number;
	    audience?: string;
	
	    static createFrom(source: any = {}) {
	        return new Block(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mime_type = source["mime_type"];
	        this.bytes = source["bytes"];
	        this.audience = source["audience"];
	    }
	}

}

